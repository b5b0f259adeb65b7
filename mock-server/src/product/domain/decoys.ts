// Decoy codes: an address without a code is checked against one, so wrong guesses count alike with or without
// an account. Never with the real codes, and capped (the oldest going first), so guesses at invented addresses grow
// nothing without bound. In this process (createDecoyCodes) or in the database every instance shares
// (storage/sql-decoys.ts), where guesses spread over instances meet one decoy as they meet one code.
import type { CodeFields as CodeRecord } from '../storage/records.ts'

/** What a wrong guess at a decoy left: its attempts, and whether that burned it. */
export interface DecoyCount {
  attempts: number
  burned: boolean
}

export interface DecoyCodes {
  get(email: string, purpose: CodeRecord['purpose']): CodeRecord | undefined
  /**
   * Counts a wrong guess at the decoy of `record`'s address (`record` is the one the caller made when there was
   * none), in one step and keeping its place; null when it was burned already.
   */
  countWrong(record: CodeRecord, maxAttempts: number): DecoyCount | null
  /** Drops the decoys done at `now`: expired and past their cooldown, as the real codes (domain/purge.ts). */
  purge(now: number, cooldownMs: number): number
  size(): number
  clear(): void
}

/**
 * @example
 * const decoys = createDecoyCodes(10_000)
 * decoys.countWrong(record, 5) // { attempts: 1, burned: false }
 * decoys.get(record.email, record.purpose)?.attempts // 1
 */
export function createDecoyCodes(max: number): DecoyCodes {
  // A Map keeps insertion order: the first key is the oldest decoy.
  const records = new Map<string, CodeRecord>()
  const keyOf = (email: string, purpose: string) => `${purpose}:${email}`
  return {
    get: (email, purpose) => records.get(keyOf(email, purpose)),
    countWrong(record, maxAttempts) {
      const key = keyOf(record.email, record.purpose)
      const kept = records.get(key) ?? record
      if (kept.burned) return null
      const attempts = kept.attempts + 1
      const burned = attempts >= maxAttempts
      if (!records.has(key) && records.size >= max) records.delete(records.keys().next().value!)
      records.set(key, { ...kept, attempts, burned })
      return { attempts, burned }
    },
    purge(now, cooldownMs) {
      let removed = 0
      for (const [key, record] of records) {
        if (record.expiresAt <= now && record.sentAt + cooldownMs <= now)
          removed += Number(records.delete(key))
      }
      return removed
    },
    size: () => records.size,
    clear: () => records.clear(),
  }
}
