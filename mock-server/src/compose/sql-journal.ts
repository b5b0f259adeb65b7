// The request journal in the SQL database every instance shares (docs/mock-server.md, "Where the state lives"):
// /__mock/requests and its HAR export list every instance's calls, numbered in one order by the table's bigserial,
// so `since=<seq>` read through one instance goes on from a seq another gave. Table: migration 4 of
// product/storage/migrations.ts. Development only: production journals nothing (compose/dispatcher.ts).
import type { Exchange } from '../pipeline/exchange.ts'
import { trimExchange } from '../pipeline/exchange.ts'
import {
  exchangeSize,
  MAX_JOURNAL_ENTRIES,
  type Journal,
  type JournalEntry,
  type JournalFilter,
} from '../pipeline/journal.ts'
import { parseSince } from '#api/control-values.ts'
import { MAX_JOURNAL_EXCHANGE_CHARS } from '../shared/constants.ts'
import type { Clock } from '../shared/clock.ts'
import { qualified, type SqlClient } from '../shared/sql.ts'
import { withTextEscapes } from '../product/storage/sql-text.ts'

interface Row {
  seq: string | number | bigint
  at_ms: number
  entry: Omit<JournalEntry, 'seq' | 'at'>
  exchange: Exchange | null
}

/** The entry's fields in the order the memory journal writes them (jsonb keeps its own order). */
const FIELDS = ['method', 'path', 'operation', 'status', 'email', 'scenario', 'replay'] as const

/**
 * The record in one round trip: the insert, the oldest entries past `maxEntries` deleted, and the exchanges past the
 * size limit dropped, oldest first, keeping their summary (the new exchange counts whole, kept or not, as in memory). The last two see the table as it was before the insert
 * (one statement, one snapshot), so they count the new row from its parameters; instances recording at once may
 * each count without the other's row, so the table can hold a few more for a moment, never more for long.
 */
const recordSql = (table: string) => `
  WITH added AS (
    INSERT INTO ${table} (email, at_ms, entry, exchange, summary, exchange_chars)
    VALUES ($1, $2::double precision, $3::jsonb, $4::jsonb, $5::jsonb, $6::integer)
    RETURNING seq
  ), cut AS (
    SELECT COALESCE((SELECT seq FROM ${table} ORDER BY seq DESC OFFSET $7::bigint LIMIT 1), 0) AS seq
  ), gone AS (
    DELETE FROM ${table} WHERE seq <= (SELECT seq FROM cut)
  ), trimmed AS (
    UPDATE ${table} SET exchange = NULL, exchange_chars = 0
    WHERE exchange IS NOT NULL AND seq > (SELECT seq FROM cut) AND seq <= COALESCE((
      SELECT seq FROM (
        SELECT seq, SUM(exchange_chars) OVER (ORDER BY seq DESC) AS total
        FROM ${table} WHERE exchange IS NOT NULL AND seq > (SELECT seq FROM cut)
      ) newest WHERE total + $9::integer > $8::bigint ORDER BY seq DESC LIMIT 1
    ), 0)
  )
  SELECT seq FROM added`

/**
 * @example
 * const journal = createSqlJournal(client, clock, { schema: 't_1a2b' })
 * await journal.record({ method: 'GET', path: '/api/me', status: 200 })
 */
export function createSqlJournal(
  client: SqlClient,
  clock: Clock,
  options: { schema?: string | undefined; maxEntries?: number; maxExchangeChars?: number } = {},
): Journal {
  // Every string goes in escaped and comes out as it was (product/storage/sql-text.ts): a body may hold U+0000 or a
  // lone surrogate, which jsonb cannot. So the objects go as parameters, escaped before the driver writes their JSON.
  const sql = withTextEscapes(client)
  const table = qualified('journal', options.schema)
  const maxEntries = options.maxEntries ?? MAX_JOURNAL_ENTRIES
  const maxExchangeChars = options.maxExchangeChars ?? MAX_JOURNAL_EXCHANGE_CHARS
  const select = async (filter: JournalFilter, withExchange: boolean) => {
    const where: string[] = []
    const params: unknown[] = []
    const email = filter.email?.trim().toLowerCase()
    if (email !== undefined) where.push(`email = $${params.push(email)}`)
    const since = filter.since === undefined ? undefined : parseSince(filter.since)
    if (since && 'seq' in since) where.push(`seq > $${params.push(since.seq)}::bigint`)
    if (since && 'at' in since) where.push(`at_ms >= $${params.push(since.at)}::double precision`)
    const exchange = withExchange ? 'COALESCE(exchange, summary)' : 'NULL'
    return sql.query<Row>(
      `SELECT seq, at_ms, entry, ${exchange} AS exchange FROM ${table}
       ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq`,
      params,
    )
  }
  return {
    async record(entry, exchange) {
      const at = new Date(clock.now()).toISOString()
      const size = exchange ? exchangeSize(exchange) : 0
      // An exchange larger than the whole limit is kept as its summary only, as the memory journal does.
      const full = exchange && size <= maxExchangeChars ? exchange : undefined
      const [added] = await sql.query<{ seq: Row['seq'] }>(recordSql(table), [
        entry.email ?? null,
        Date.parse(at),
        entry,
        full ?? null,
        exchange ? trimExchange(exchange) : null,
        full ? size : 0,
        maxEntries - 1,
        maxExchangeChars,
        size,
      ])
      return { ...entry, seq: Number(added!.seq), at }
    },
    list: async (filter = {}) => (await select(filter, false)).map(entryOf),
    records: async (filter = {}) =>
      (await select(filter, true)).map((row) =>
        row.exchange ? { entry: entryOf(row), exchange: row.exchange } : { entry: entryOf(row) },
      ),
    clear: async () => void (await sql.query(`DELETE FROM ${table}`)),
  }
}

function entryOf(row: Row): JournalEntry {
  const kept: Record<string, unknown> = {}
  for (const field of FIELDS) if (row.entry[field] !== undefined) kept[field] = row.entry[field]
  const fields = kept as Omit<JournalEntry, 'seq' | 'at'>
  return { ...fields, seq: Number(row.seq), at: new Date(row.at_ms).toISOString() }
}
