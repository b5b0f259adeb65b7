// The counters the rules keep besides the records: rate-limit windows, the lock-out's counts and known addresses,
// wrong-code logs, and the newest sign-up's password per address. The rules see them through these async
// interfaces, so the same rules count in this process's memory (the bounded maps of lockout.ts, rate-limit.ts,
// guess-log.ts, pending-passwords.ts) or in the SQL database every instance shares (storage/sql-counters.ts), where
// an attacker spreading guesses over instances meets one count (docs/mock-server.md, "Where the state lives").
import type { Clock } from '../../shared/clock.ts'
import { createDecoyCodes, type DecoyCodes } from './decoys.ts'
import { createGuessLog, type GuessLimit, type GuessLog } from './guess-log.ts'
import { createLockout, type Lockout, type LockoutPolicy } from './lockout.ts'
import { createPendingPasswords, type PendingPasswords } from './pending-passwords.ts'
import { createRateLimiter, type RateLimit, type RateLimiter } from './rate-limit.ts'

/** `T` with every method answering through a promise. */
export type Async<T> = {
  [K in keyof T]: T[K] extends (...args: infer A) => infer R ? (...args: A) => Promise<Awaited<R>> : T[K]
}

/** The product's rate limiters, by what they limit. */
export type LimiterName = 'login' | 'mail' | 'verify'

export interface PendingPolicy {
  /** How many addresses are kept at most (memory); the oldest goes first. */
  max: number
  keepMs: number
}

/** Makes each counter of the product, on one backend. */
export interface CounterBackend {
  rateLimiter(name: LimiterName, clock: Clock, limit: RateLimit): Async<RateLimiter>
  lockout(clock: Clock, policy: LockoutPolicy): Async<Lockout>
  guessLog(limit: GuessLimit, capacity: number): Async<GuessLog>
  pendingPasswords(clock: Clock, policy: PendingPolicy): Async<PendingPasswords>
  /** Decoy codes, at most `max` (domain/decoys.ts). */
  decoys(max: number): Async<DecoyCodes>
}

/**
 * The same object, each method answering through a promise (a memory counter's answer is ready at once).
 * @example asAsync(createRateLimiter(clock, limit)).hit('10.0.0.1') // Promise<0>
 */
export function asAsync<T extends object>(sync: T): Async<T> {
  const wrapped: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(sync))
    wrapped[key] =
      typeof value === 'function'
        ? (...args: unknown[]) => Promise.resolve((value as (...a: unknown[]) => unknown)(...args))
        : value
  return wrapped as Async<T>
}

/** In this process's memory, bounded (the default; each instance counts for itself). */
export const memoryCounters: CounterBackend = {
  rateLimiter: (_name, clock, limit) => asAsync(createRateLimiter(clock, limit)),
  lockout: (clock, policy) => asAsync(createLockout(clock, policy)),
  guessLog: (limit, capacity) => asAsync(createGuessLog(limit, capacity)),
  pendingPasswords: (clock, policy) => asAsync(createPendingPasswords(clock, policy)),
  decoys: (max) => asAsync(createDecoyCodes(max)),
}
