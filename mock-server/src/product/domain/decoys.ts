// Decoy codes: an address without a code is checked against one, so wrong guesses count alike with or without
// an account. In memory only and capped, so guesses at invented addresses grow nothing without bound.
import type { CodeFields as CodeRecord } from '../storage/records.ts'

export interface DecoyCodes {
  get(email: string, purpose: CodeRecord['purpose']): CodeRecord | undefined
  set(record: CodeRecord): void
  /** Drops the decoys `isExpired` says are done; returns how many. */
  purge(isExpired: (record: CodeRecord) => boolean): number
  size(): number
  clear(): void
}

/**
 * @example
 * const decoys = createDecoyCodes(10_000)
 * decoys.set(record)
 * decoys.get(record.email, record.purpose) // record
 */
export function createDecoyCodes(max: number): DecoyCodes {
  // A Map keeps insertion order: the first key is the oldest decoy.
  const records = new Map<string, CodeRecord>()
  const keyOf = (email: string, purpose: string) => `${purpose}:${email}`
  return {
    get: (email, purpose) => records.get(keyOf(email, purpose)),
    set(record) {
      const key = keyOf(record.email, record.purpose)
      if (!records.has(key) && records.size >= max) records.delete(records.keys().next().value!)
      records.set(key, record)
    },
    purge(isExpired) {
      let removed = 0
      for (const [key, record] of records) {
        if (isExpired(record)) removed += Number(records.delete(key))
      }
      return removed
    },
    size: () => records.size,
    clear: () => records.clear(),
  }
}
