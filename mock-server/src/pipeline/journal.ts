// The request journal: what the product API was asked, in order, so a test can assert "exactly one refresh", and
// what it answered, for GET /__mock/requests?format=har (docs/decisions/017-har-record-and-replay.md). Each entry
// may carry its exchange (URL with query, headers, bodies), redacted before it is kept (pipeline/exchange.ts): no
// token, password or code is ever held here. Headers and bodies are kept for the newest entries within
// MAX_JOURNAL_EXCHANGE_CHARS; older exchanges keep their URL, status and timing. This is the journal of one process;
// instances on one SQL database share compose/sql-journal.ts instead, so its reads are async.
import type { components } from '#api/control.gen.ts'
import { MAX_JOURNAL_EXCHANGE_CHARS } from '../shared/constants.ts'
import type { Clock } from '../shared/clock.ts'
import { trimExchange, type Exchange } from './exchange.ts'
import { parseSince } from '#api/control-values.ts'

export type JournalEntry = components['schemas']['JournalEntry']

/** An entry with the exchange it was recorded with, while the journal still keeps it. */
export interface RecordedCall {
  entry: JournalEntry
  exchange?: Exchange
}

export interface JournalFilter {
  email?: string | undefined
  since?: string | undefined
}

export interface Journal {
  /** Resolves once the entry is kept, so a read that starts after it (on any instance sharing it) lists it. */
  record(entry: Omit<JournalEntry, 'seq' | 'at'>, exchange?: Exchange): Promise<JournalEntry>
  /** Entries for `email` (all without it) after `since`: a seq, or an ISO date-time (at or after). */
  list(filter?: JournalFilter): Promise<JournalEntry[]>
  /** The same entries as `list`, each with its exchange when the journal still keeps it. */
  records(filter?: JournalFilter): Promise<RecordedCall[]>
  clear(): Promise<void>
}

/** The newest entries a journal keeps; older ones go. */
export const MAX_JOURNAL_ENTRIES = 10_000

interface Kept {
  entry: JournalEntry
  exchange?: Exchange
  /** The exchange's size, counted in `exchangeChars` while it is kept. */
  size: number
}

export function createJournal(
  clock: Clock,
  limits: { maxEntries?: number; maxExchangeChars?: number } = {},
): Journal {
  const maxEntries = limits.maxEntries ?? MAX_JOURNAL_ENTRIES
  const maxExchangeChars = limits.maxExchangeChars ?? MAX_JOURNAL_EXCHANGE_CHARS
  let kept: Kept[] = []
  let seq = 0
  let exchangeChars = 0
  /** Every entry before this index has had its exchange trimmed (oldest first). */
  let firstWithExchange = 0
  /** Keeps the URL, status and timing of an old exchange, and gives back the room of its headers and bodies. */
  const trim = (item: Kept) => {
    if (!item.exchange || item.exchange.trimmed) return
    item.exchange = trimExchange(item.exchange)
    exchangeChars -= item.size
    item.size = 0
  }
  const select = (filter: JournalFilter): Kept[] => {
    const email = filter.email?.trim().toLowerCase()
    const since = filter.since === undefined ? undefined : parseSince(filter.since)
    return kept.filter(({ entry }) => {
      if (email !== undefined && entry.email !== email) return false
      if (since && 'seq' in since && entry.seq <= since.seq) return false
      if (since && 'at' in since && Date.parse(entry.at) < since.at) return false
      return true
    })
  }
  // Async only to share the interface with the SQL journal: each call does its work at once, in call order.
  return {
    async record(entry, exchange) {
      seq += 1
      const full = { ...entry, seq, at: new Date(clock.now()).toISOString() }
      const item: Kept = { entry: full, size: 0 }
      if (exchange) {
        item.exchange = exchange
        item.size = exchangeSize(exchange)
        exchangeChars += item.size
      }
      kept.push(item)
      if (kept.length > maxEntries) {
        const gone = kept.length - maxEntries
        for (const old of kept.slice(0, gone)) trim(old)
        kept = kept.slice(gone)
        firstWithExchange = Math.max(0, firstWithExchange - gone)
      }
      while (exchangeChars > maxExchangeChars && firstWithExchange < kept.length) {
        trim(kept[firstWithExchange]!)
        firstWithExchange += 1
      }
      return full
    },
    list: async (filter = {}) => select(filter).map(({ entry }) => entry),
    records: async (filter = {}) =>
      select(filter).map(({ entry, exchange }) => (exchange ? { entry, exchange } : { entry })),
    async clear() {
      kept = []
      exchangeChars = 0
      firstWithExchange = 0
    },
  }
}

/** About the exchange's size in memory: its strings' lengths (UTF-16 units), plus a little for each header. */
export function exchangeSize(exchange: Exchange): number {
  let size = 100 + exchange.origin.length + exchange.url.length
  for (const [name, value] of exchange.requestHeaders) size += 16 + name.length + value.length
  for (const [name, value] of exchange.response.headers) size += 16 + name.length + value.length
  size += exchange.requestBody?.text.length ?? 0
  size += exchange.response.body?.text.length ?? 0
  return size
}
