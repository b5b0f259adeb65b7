// The error-reporting and session-recorder sinks in the SQL database every instance shares (docs/mock-server.md,
// "Where the state lives"): an envelope or a batch received by one instance is listed by all. Development only, as
// the /__mock surface that lists them. Tables: migration 6 of product/storage/migrations.ts.
import { hashToken } from '../shared/crypto.ts'
import { qualified, type SqlClient, type SqlQueryable } from '../shared/sql.ts'
import type { RecorderSession, SentryEvent, SinkLimits, SinkStore } from '../control/sinks.ts'

/** An entry as a row: its JSON text (which holds neither U+0000 nor a lone surrogate) and that text's size. */
function rowOf(entry: object): { body: string; bytes: number } {
  const body = JSON.stringify(entry)
  return { body, bytes: Buffer.byteLength(body) }
}

/**
 * Deletes what the caps leave out: the entries older than the newest that fit in `maxBytes` and `maxItems`, as
 * control/bounded-log.ts drops them in memory.
 */
const trimOf = (table: string) => `
  DELETE FROM ${table} WHERE seq IN (
    SELECT seq FROM (
      SELECT seq, sum(bytes) OVER newest AS total, row_number() OVER newest AS place
      FROM ${table} WINDOW newest AS (ORDER BY seq DESC)
    ) ranked WHERE total > $1 OR place > $2
  )`

/**
 * @example
 * const store = createSqlSinkStore(client, { schema: 't_1a2b', maxBytes: 8 * 1024 * 1024, maxItems: 1000 })
 * const sinks = createSinks(clock, store, gunzip)
 */
export function createSqlSinkStore(
  client: SqlClient,
  options: SinkLimits & { schema?: string | undefined },
): SinkStore {
  const events = qualified('sink_events', options.schema)
  const sessions = qualified('recorder_sessions', options.schema)
  const limits = [options.maxBytes, options.maxItems]
  // Writers of one table take turns (the lock lets readers through), each trimming after its own write: the caps
  // hold exactly whichever instances write at once, and a session's batches counted together never lose one.
  const write = <T>(table: string, work: (tx: SqlQueryable) => Promise<T>) =>
    client.transaction(async (tx) => {
      await tx.query(`LOCK TABLE ${table} IN SHARE ROW EXCLUSIVE MODE`)
      const result = await work(tx)
      await tx.query(trimOf(table), limits)
      return result
    })
  const bodies = async <T>(text: string, params: readonly unknown[] = []) =>
    (await client.query<{ body: string }>(text, params)).map((row) => JSON.parse(row.body) as T)
  return {
    addEvents: (added) =>
      write(events, async (tx) => {
        for (const { body, bytes } of added.map(rowOf))
          await tx.query(`INSERT INTO ${events} (body, bytes) VALUES ($1, $2)`, [body, bytes])
      }),
    listEvents: () => bodies<SentryEvent>(`SELECT body FROM ${events} ORDER BY seq`),
    async findSession(token) {
      const [session] = await bodies<RecorderSession>(`SELECT body FROM ${sessions} WHERE token_hash = $1`, [
        hashToken(token),
      ])
      return session ?? null
    },
    addSession: (token, session) =>
      write(sessions, async (tx) => {
        const { body, bytes } = rowOf(session)
        // The token's hash only: the database never holds an upload token someone could send batches with.
        await tx.query(`INSERT INTO ${sessions} (token_hash, body, bytes) VALUES ($1, $2, $3)`, [
          hashToken(token),
          body,
          bytes,
        ])
      }),
    updateSession: (token, change) =>
      write(sessions, async (tx) => {
        const [row] = await tx.query<{ seq: string; body: string }>(
          `SELECT seq, body FROM ${sessions} WHERE token_hash = $1`,
          [hashToken(token)],
        )
        if (!row) return false
        const session = JSON.parse(row.body) as RecorderSession
        change(session)
        const { body, bytes } = rowOf(session)
        await tx.query(`UPDATE ${sessions} SET body = $2, bytes = $3 WHERE seq = $1`, [row.seq, body, bytes])
        return true
      }),
    listSessions: () => bodies<RecorderSession>(`SELECT body FROM ${sessions} ORDER BY seq`),
    async clear() {
      await client.query(`DELETE FROM ${events}`)
      await client.query(`DELETE FROM ${sessions}`)
    },
  }
}
