// The two engines behind shared/sql.ts: PGlite (PostgreSQL compiled to WebAssembly, in this process, one folder)
// for --data <dir>, and PostgreSQL through node-postgres for --database <url> (docs/decisions/024-storage-port.md).
import { PGlite, type Transaction } from '@electric-sql/pglite'
import pg from 'pg'
import type { SqlClient, SqlQueryable } from '../shared/sql.ts'
import { ServiceUnavailableError } from '../shared/unavailable.ts'
import { createReachGate, REACH_RETRY_MS } from './reach-gate.ts'

/** The embedded engine, keeping its files in `dir` (made when missing), or in memory without one. */
export async function openPglite(dir?: string): Promise<SqlClient> {
  return pgliteClient(await PGlite.create(dir))
}

/** An open PGlite as the stores' client (the tests' template engines, mock-server/testing/pglite-template.ts). */
export function pgliteClient(db: PGlite): SqlClient {
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

/** How long a connection may take to open before the database counts as out of reach. */
export const CONNECT_TIMEOUT_MS = 5_000
/**
 * How long PostgreSQL runs a statement (a wait on a lock included) before it cancels it itself. The server must be
 * the one to give up: a statement the client stopped waiting for still ran, and a refresh answered 503 was then
 * rotated behind its client's back, which signed the client out when it sent the same token again.
 */
export const STATEMENT_TIMEOUT_MS = 10_000
/** How much longer the client waits for an answer, so the server's own cancel arrives first; past it, a silent server. */
const QUERY_TIMEOUT_MARGIN_MS = 2_000

// Node's socket errors, and SQLSTATE connection_exception (08…), admin_shutdown, crash_shutdown and
// cannot_connect_now: the server or the way to it is gone, not the statement wrong.
const LOST_CODES =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|08...|57P0[123])$/
// Also answered 503, to be tried again, though the server answered: too_many_connections, query_canceled (57014:
// past STATEMENT_TIMEOUT_MS, nothing written) and read_only_sql_transaction (25006: a primary demoted by a failover),
// the database's own trouble rather than the call's.
const BUSY_CODES = /^(53300|57014|25006)$/
// node-postgres's own errors for a lost or silent connection, which carry no code.
const LOST_MESSAGES = /Connection terminated|Query read timeout|connection error|Connection ended/i
// pg-pool's error for a statement that waited past the connect time-out for one of the pool's connections, all busy
// (a new connection that takes too long is "Connection terminated due to connection timeout"): a 503, but the
// database is there, and the statements holding the connections will answer.
const POOL_BUSY_MESSAGE = /timeout exceeded when trying to connect/i

const codeOf = (error: Error) => (error as { code?: unknown }).code

/** Whether `error` says the connection to the database is lost or could not be made. */
export function isConnectionLost(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = codeOf(error)
  return (typeof code === 'string' && LOST_CODES.test(code)) || LOST_MESSAGES.test(error.message)
}

/** Whether `error` says the database is out of reach or cannot take the call now (a 503), as opposed to a statement it refused. */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  const code = codeOf(error)
  return (
    isConnectionLost(error) ||
    (typeof code === 'string' && BUSY_CODES.test(code)) ||
    POOL_BUSY_MESSAGE.test(error.message)
  )
}

/** Runs `work`; an error saying the database is out of reach becomes a ServiceUnavailableError (a 503). */
async function reaching<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (error instanceof ServiceUnavailableError || !isUnreachable(error)) throw error
    throw new ServiceUnavailableError(`The database is out of reach (${describe(error as Error)}).`, {
      cause: error,
    })
  }
}

/**
 * A pool on a PostgreSQL server. Its connection errors reach `onError` (one line), never the process; a call made
 * while the server is out of reach fails with ServiceUnavailableError, and the pool reconnects on the next call.
 */
export function openPostgres(
  url: string,
  onError: (line: string) => void,
  /**
   * Tests shorten the statement's time (the client's wait stays the 2 s longer), and set how long a connection may
   * take and how long statements fail at once after one was lost (compose/reach-gate.ts).
   */
  {
    statementTimeoutMs = STATEMENT_TIMEOUT_MS,
    connectTimeoutMs = CONNECT_TIMEOUT_MS,
    retryMs = REACH_RETRY_MS,
  } = {},
): SqlClient {
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    connectionTimeoutMillis: connectTimeoutMs,
    statement_timeout: statementTimeoutMs,
    // A server that stops answering mid-statement must not hold the call for ever.
    query_timeout: statementTimeoutMs + QUERY_TIMEOUT_MARGIN_MS,
  })
  // An idle client losing its server emits here; the next query gets a fresh one.
  const onLost = (error: Error) => onError(`The database connection failed (${describe(error)}).`)
  pool.on('error', onLost)
  // A statement on the pool goes through the gate; one inside a transaction already has its connection.
  const gate = createReachGate(isConnectionLost, { retryMs, describe })
  const over = (target: pg.Pool | pg.PoolClient): SqlQueryable => {
    const gated = <T>(work: () => Promise<T>) => reaching(target === pool ? () => gate.run(work) : work)
    return {
      query: <Row>(text: string, params: readonly unknown[] = []) =>
        gated(async () => (await target.query(text, [...params])).rows as Row[]),
      // Without parameters node-postgres sends the simple protocol, which runs several statements.
      exec: (text) => gated(async () => void (await target.query(text))),
    }
  }
  return {
    ...over(pool),
    manyConnections: true,
    transaction: (work) =>
      reaching(() =>
        gate.run(async () => {
          const client = await pool.connect()
          // A checked-out client whose connection drops emits 'error'; unheard, that ends the process. The
          // statement under way fails on its own, so the event needs only a line.
          const onError = (error: Error) => onLost(error)
          client.on('error', onError)
          let broken: unknown
          try {
            await client.query('BEGIN')
            const result = await work(over(client))
            await client.query('COMMIT')
            return result
          } catch (error) {
            await client.query('ROLLBACK').catch((failure: unknown) => void (broken = failure))
            throw error
          } finally {
            // A client whose connection failed is destroyed, so the pool never hands it out again.
            client.off('error', onError)
            client.release(broken instanceof Error ? broken : undefined)
          }
        }),
      ),
    close: () => pool.end(),
  }
}

/** An error's code and message, never the URL or its password (node-postgres does not put them in either). */
function describe(error: Error): string {
  const code = (error as { code?: string }).code
  return code ? `${code}: ${error.message}` : error.message
}
