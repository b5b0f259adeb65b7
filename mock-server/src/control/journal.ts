// The request journal: what the product API was asked, in order, so a test can assert
// "exactly one refresh". Paths are kept without query strings; no body, header or token is kept.
import type { components } from '#contracts/control.gen.ts'
import type { Clock } from '../domain/clock.ts'

export type JournalEntry = components['schemas']['JournalEntry']

export interface Journal {
  record(entry: Omit<JournalEntry, 'seq' | 'at'>): JournalEntry
  /** Entries for `email` (all without it) after `since`: a seq, or an ISO date-time (at or after). */
  list(filter?: { email?: string; since?: string }): JournalEntry[]
  clear(): void
}

const MAX_ENTRIES = 10_000

/** Parses a `since` filter; throws "Failed to read since: ..." on anything else. */
export function parseSince(since: string): { seq: number } | { at: number } {
  if (/^\d{1,15}$/.test(since)) return { seq: Number(since) }
  const at = Date.parse(since)
  if (Number.isNaN(at) || !/^\d{4}-\d{2}-\d{2}[Tt]/.test(since)) {
    throw new Error('Failed to read since: use a seq number or an ISO date-time.')
  }
  return { at }
}

export function createJournal(clock: Clock): Journal {
  let entries: JournalEntry[] = []
  let seq = 0
  return {
    record(entry) {
      seq += 1
      const full = { ...entry, seq, at: new Date(clock.now()).toISOString() }
      entries.push(full)
      if (entries.length > MAX_ENTRIES) entries = entries.slice(-MAX_ENTRIES)
      return full
    },
    list(filter = {}) {
      const email = filter.email?.trim().toLowerCase()
      const since = filter.since === undefined ? undefined : parseSince(filter.since)
      return entries.filter((entry) => {
        if (email !== undefined && entry.email !== email) return false
        if (since && 'seq' in since && entry.seq <= since.seq) return false
        if (since && 'at' in since && Date.parse(entry.at) < since.at) return false
        return true
      })
    },
    clear() {
      entries = []
    },
  }
}
