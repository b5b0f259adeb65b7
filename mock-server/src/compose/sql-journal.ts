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
 * The record in one round trip: the insert, the entries `maxEntries` seqs older deleted, and the exchanges past the
 * size limit dropped, oldest first, keeping their summary. `exchange_from` is a running count of the exchanges'
 * characters (the new one counts whole, kept or not, as in memory), so the exchanges to drop are those that start
 * more than the limit before the new one ends: an index range, no sum. Approximations, both toward keeping a little
 * more: a seq lost to a failed insert still counts as an entry, so a few fewer than `maxEntries` may be kept; and two
 * instances recording at the same moment start from the same count, so the exchanges kept may pass the limit by
 * the size of such overlaps until they age out. The update leaves the rows the delete takes: one statement must not
 * change a row twice.
 */
const recordSql = (table: string) => `
  WITH prior AS (
    SELECT COALESCE((SELECT exchange_from + exchange_chars FROM ${table} ORDER BY seq DESC LIMIT 1), 0) AS chars
  ), added AS (
    INSERT INTO ${table} (email, at_ms, entry, exchange, summary, exchange_from, exchange_chars)
    VALUES ($1, $2::double precision, $3::jsonb, $4::jsonb, $5::jsonb, (SELECT chars FROM prior), $6::integer)
    RETURNING seq
  ), gone AS (
    DELETE FROM ${table} WHERE seq <= (SELECT seq FROM added) - $7::bigint
  ), trimmed AS (
    UPDATE ${table} SET exchange = NULL
    WHERE exchange IS NOT NULL AND exchange_from < (SELECT chars FROM prior) + $6::integer - $8::bigint
      AND seq > (SELECT seq FROM added) - $7::bigint
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
        size,
        maxEntries,
        maxExchangeChars,
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
