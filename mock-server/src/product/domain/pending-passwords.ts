// The password of each address's newest sign-up, whatever the address's state. A sign-in that matches it answers
// `unverified`, so signing up then in answers alike whether or not the address had an account
// (docs/security/codes.md). In memory, hashes only, and capped.
import type { Clock } from '../../shared/clock.ts'

export interface PendingPasswords {
  /** The hash of the newest sign-up's password for `address` (normalized). */
  record(address: string, passwordHash: string): void
  /** That hash while it is kept, or undefined. */
  find(address: string): string | undefined
  /** Forgets the address's sign-up: its address was proven, or its account has a new password. */
  forget(address: string): void
  /** Drops the expired ones; returns how many. */
  purge(): number
  size(): number
  clear(): void
}

/**
 * @example
 * const pending = createPendingPasswords(clock, { max: 50_000, keepMs: 7 * 24 * 3_600_000 })
 * pending.record('ada@example.com', hash)
 * pending.find('ada@example.com') // hash
 */
export function createPendingPasswords(
  clock: Clock,
  policy: { max: number; keepMs: number },
): PendingPasswords {
  // A Map keeps insertion order, and a record is re-inserted: the first key is the least recent sign-up.
  const entries = new Map<string, { passwordHash: string; until: number }>()
  const alive = (entry: { until: number } | undefined) => entry !== undefined && entry.until > clock.now()
  return {
    record(address, passwordHash) {
      entries.delete(address)
      if (entries.size >= policy.max) entries.delete(entries.keys().next().value!)
      entries.set(address, { passwordHash, until: clock.now() + policy.keepMs })
    },
    find(address) {
      const entry = entries.get(address)
      return alive(entry) ? entry!.passwordHash : undefined
    },
    forget: (address) => void entries.delete(address),
    purge() {
      let removed = 0
      for (const [address, entry] of entries) if (!alive(entry)) removed += Number(entries.delete(address))
      return removed
    },
    size: () => entries.size,
    clear: () => entries.clear(),
  }
}
