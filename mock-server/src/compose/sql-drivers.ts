// The two engines behind shared/sql.ts: PGlite (PostgreSQL compiled to WebAssembly, in this process, one folder)
// for --data <dir>, and PostgreSQL through node-postgres for --database <url> (docs/decisions/024-storage-port.md).
import { PGlite, type Transaction } from '@electric-sql/pglite'
import pg from 'pg'
import type { SqlClient, SqlQueryable } from '../shared/sql.ts'

/** The embedded engine, keeping its files in `dir` (made when missing), or in memory without one. */
export async function openPglite(dir?: string): Promise<SqlClient> {
  const db = await PGlite.create(dir)
  const over = (target: PGlite | Transaction): SqlQueryable => ({
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await target.query<Row>(text, [...params])).rows,
    exec: async (text) => void (await target.exec(text)),
  })
  return {
    ...over(db),
    transaction: (work) => db.transaction((tx) => work(over(tx))),
    close: () => db.close(),
  }
}

/** A pool on a PostgreSQL server. Its connection errors reach `onError` (one line), never the process. */
export function openPostgres(url: string, onError: (line: string) => void): SqlClient {
  const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5_000 })
  // An idle client losing its server emits here; the next query gets a fresh one.
  pool.on('error', (error) => onError(`The database connection failed (${describe(error)}).`))
  const over = (target: pg.Pool | pg.PoolClient): SqlQueryable => ({
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await target.query(text, [...params])).rows as Row[],
    // Without parameters node-postgres sends the simple protocol, which runs several statements.
    exec: async (text) => void (await target.query(text)),
  })
  return {
    ...over(pool),
    async transaction(work) {
      const client = await pool.connect()
      try {
        await client.query('BEGIN')
        const result = await work(over(client))
        await client.query('COMMIT')
        return result
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined)
        throw error
      } finally {
        client.release()
      }
    },
    close: () => pool.end(),
  }
}

/** An error's code and message, never the URL or its password (node-postgres does not put them in either). */
function describe(error: Error): string {
  const code = (error as { code?: string }).code
  return code ? `${code}: ${error.message}` : error.message
}
