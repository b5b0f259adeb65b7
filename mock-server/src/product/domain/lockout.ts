// Pure: password lock-out; imports no HTTP, and time comes from the injected clock.
// It aims at the attacker, not the owner (docs/security/lockout.md): wrong passwords lock one (account, address)
// pair, and past an account-wide ceiling, unknown addresses are paced instead of refused.
// Unknown accounts count like known ones, and everything is bounded in memory.
import { RATE_LIMIT_CAPACITY } from '../../shared/constants.ts'
import type { Clock } from '../../shared/clock.ts'
import { createRateLimiter, type RateLimit } from './rate-limit.ts'

export interface LockoutPolicy {
  /** Consecutive wrong passwords from one address that lock that address out of the account. */
  threshold: number
  lockMs: number
  /** Wrong passwords per account (all addresses) in a window before unknown addresses are paced. */
  ceiling: RateLimit
  /** Past the ceiling: one attempt per account per paceMs from an address it does not know. */
  paceMs: number
  /** How long an address that signed in stays known to the account. */
  familiarMs: number
}

export type LoginGate =
  | { kind: 'open' }
  /** This address is locked out of this account: the password is checked but never accepted. */
  | { kind: 'locked'; retryAfter: number }
  /** Past the account's ceiling and this address is unknown to it: try again in retryAfter seconds. */
  | { kind: 'paced'; retryAfter: number }

export interface Lockout {
  /** Before a password is checked. Takes the account's pace slot when it lets a paced attempt through. */
  admit(account: string, client: string): LoginGate
  /** Seconds left on this address's lock-out of this account (0 when none). */
  getLockSeconds(account: string, client: string): number
  recordFailure(account: string, client: string): void
  /** The right password (or a sign-in code) from this address: its count restarts and it becomes known. */
  recordSuccess(account: string, client: string): void
  /** Whether this address signed in to this account lately (the right password or a code). */
  isKnown(account: string, client: string): boolean
  /** A new password: every lock, count and known address of the account goes. */
  forgetAccount(account: string): void
  clear(): void
  /** How many entries each part holds (for tests). */
  size(): { pairs: number; familiar: number; ceiling: number; pace: number }
}

interface Pair {
  failures: number
  lockedUntil: number
}

const keyOf = (account: string, client: string) => `${account}\n${client}`

export function createLockout(clock: Clock, policy: LockoutPolicy, capacity = RATE_LIMIT_CAPACITY): Lockout {
  const pairs = createPairBook(clock, policy, capacity)
  const familiar = createFamiliarBook(clock, policy.familiarMs, capacity)
  // Counted per account, whether or not the account exists, so the ceiling answers alike for both.
  const ceiling = createRateLimiter(clock, { ...policy.ceiling, max: policy.ceiling.max - 1 }, capacity)
  const pace = createRateLimiter(clock, { max: 1, windowMs: policy.paceMs }, capacity)

  return {
    admit(account, client) {
      const locked = pairs.lockSeconds(keyOf(account, client))
      if (locked > 0) return { kind: 'locked', retryAfter: locked }
      if (ceiling.count(account) < policy.ceiling.max || familiar.has(keyOf(account, client)))
        return { kind: 'open' }
      const wait = pace.hit(account)
      return wait > 0 ? { kind: 'paced', retryAfter: wait } : { kind: 'open' }
    },
    getLockSeconds: (account, client) => pairs.lockSeconds(keyOf(account, client)),
    recordFailure(account, client) {
      pairs.fail(keyOf(account, client))
      ceiling.hit(account)
    },
    recordSuccess(account, client) {
      pairs.forget(keyOf(account, client))
      familiar.add(keyOf(account, client))
    },
    isKnown: (account, client) => familiar.has(keyOf(account, client)),
    forgetAccount(account) {
      const prefix = keyOf(account, '')
      pairs.forgetWhere((key) => key.startsWith(prefix))
      familiar.forgetWhere((key) => key.startsWith(prefix))
      ceiling.forget(account)
      pace.forget(account)
    },
    clear() {
      for (const part of [pairs, familiar, ceiling, pace]) part.clear()
    },
    size: () => ({
      pairs: pairs.size(),
      familiar: familiar.size(),
      ceiling: ceiling.size(),
      pace: pace.size(),
    }),
  }
}

/**
 * Failure counts and locks per (account, address). When full it drops a locked pair last, so a flood of fresh
 * pairs unlocks no one.
 */
function createPairBook(clock: Clock, policy: LockoutPolicy, capacity: number) {
  // Insertion order is age: counting pairs by their first failure, locked pairs by when they locked (all locks
  // last lockMs, so the front of `locked` ends first).
  const counting = new Map<string, Pair>()
  const locked = new Map<string, Pair>()

  function current(key: string, now: number): Pair | undefined {
    const pair = locked.get(key)
    if (pair && pair.lockedUntil <= now) locked.delete(key) // an ended lock starts the count again
    return locked.get(key) ?? counting.get(key)
  }

  function makeRoom(now: number): void {
    for (const [key, pair] of locked) {
      if (counting.size + locked.size < capacity || pair.lockedUntil > now) break
      locked.delete(key)
    }
    while (counting.size + locked.size >= capacity) {
      const victim = counting.size > 0 ? counting : locked
      victim.delete(victim.keys().next().value as string)
    }
  }

  const removeWhere = (map: Map<string, Pair>, test: (key: string) => boolean) => {
    for (const key of [...map.keys()]) if (test(key)) map.delete(key)
  }

  return {
    lockSeconds(key: string): number {
      const now = clock.now()
      const pair = current(key, now)
      return pair && pair.lockedUntil > now ? Math.max(1, Math.ceil((pair.lockedUntil - now) / 1000)) : 0
    },
    fail(key: string): void {
      const now = clock.now()
      const pair = current(key, now)
      if (pair && pair.lockedUntil > now) return // a locked pair's attempts count for nothing more
      if (!pair) {
        makeRoom(now)
        counting.set(key, { failures: 1, lockedUntil: 0 })
      } else pair.failures += 1
      const counted = counting.get(key)!
      if (counted.failures < policy.threshold) return
      counting.delete(key)
      locked.set(key, { failures: counted.failures, lockedUntil: now + policy.lockMs })
    },
    forget(key: string): void {
      counting.delete(key)
      locked.delete(key)
    },
    forgetWhere(test: (key: string) => boolean): void {
      removeWhere(counting, test)
      removeWhere(locked, test)
    },
    clear(): void {
      counting.clear()
      locked.clear()
    },
    size: () => counting.size + locked.size,
  }
}

/** Addresses an account signed in from, each until familiarMs after its last sign-in; the oldest go first. */
function createFamiliarBook(clock: Clock, familiarMs: number, capacity: number) {
  const until = new Map<string, number>() // insertion order = last sign-in order
  return {
    has(key: string): boolean {
      return (until.get(key) ?? 0) > clock.now()
    },
    add(key: string): void {
      const now = clock.now()
      until.delete(key)
      for (const [oldest, ends] of until) {
        if (until.size < capacity && ends > now) break
        until.delete(oldest)
      }
      until.set(key, now + familiarMs)
    },
    forgetWhere(test: (key: string) => boolean): void {
      for (const key of [...until.keys()]) if (test(key)) until.delete(key)
    },
    clear: () => until.clear(),
    size: () => until.size,
  }
}
