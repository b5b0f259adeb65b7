// Applies versioned migrations once each, in order, in one transaction under an advisory lock, so instances
// starting together on one database migrate it once and the others wait and find it done
// (docs/decisions/024-storage-port.md). A database migrated by a newer server is refused, never half-understood.
import { qualified, type SqlClient, type SqlQueryable } from './sql.ts'

export interface Migration {
  version: number
  name: string
  sql: string
}

/**
 * The advisory lock's first key, any fixed number no other tool on the database uses (ASCII "auth"); the second is
 * the schema's name hashed, so migrations of two schemas of one database (the tests give each server one) never wait
 * on each other.
 */
export const MIGRATION_LOCK_CLASS = 0x61757468

export interface MigrateOptions {
  /** Called once when another server holds the lock (it is migrating): this one waits for it. */
  onWait?: () => void
  /** How long to wait for another server's migration before the start fails. */
  waitMs?: number
  /** How often to ask for the lock meanwhile, at most (first after 20 ms, then twice as long each time). */
  pollMs?: number
}

/** A big table's migration may take minutes; a server waiting longer than this says so and stops. */
export const MIGRATION_WAIT_MS = 15 * 60_000

/**
 * Returns the versions it applied (none when the database was current). With `schema`, the tables go there (made
 * when missing) rather than where the connection's search path points.
 */
export async function migrate(
  sql: SqlClient,
  migrations: readonly Migration[],
  schema?: string,
  options: MigrateOptions = {},
): Promise<number[]> {
  return sql.transaction(async (tx) => {
    await takeTransactionLock(tx, MIGRATION_LOCK_CLASS, schema, 'migrating the database', options)
    if (schema !== undefined) {
      qualified('schema_migrations', schema) // checks the name, which goes into the SQL text
      await tx.exec(`CREATE SCHEMA IF NOT EXISTS ${schema}; SET LOCAL search_path TO ${schema}`)
    }
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`)
    const rows = await tx.query<{ version: number }>('SELECT version FROM schema_migrations')
    const applied = new Set(rows.map((row) => row.version))
    const known = Math.max(0, ...migrations.map((migration) => migration.version))
    const newest = Math.max(0, ...applied)
    if (newest > known)
      throw new Error(
        `Failed to start: the database is at schema version ${newest}, newer than this server's ${known}. Run a newer server.`,
      )
    const done: number[] = []
    for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
      if (applied.has(migration.version)) continue
      await tx.exec(migration.sql)
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ])
      done.push(migration.version)
    }
    return done
  })
}

/**
 * A transaction's advisory lock on `lockClass` and the schema, asked for again and again rather than waited on in one
 * statement: a wait in one statement would pass the database's statement time-out (compose/sql-drivers.ts) behind a
 * holder of a few seconds more, and fail the start as if the database were out of reach. `what` names what the
 * holder is doing, for the refusal past `waitMs`.
 */
export async function takeTransactionLock(
  tx: SqlQueryable,
  lockClass: number,
  schema: string | undefined,
  what: string,
  options: MigrateOptions,
): Promise<void> {
  const { waitMs = MIGRATION_WAIT_MS, pollMs = 250 } = options
  const deadline = Date.now() + waitMs
  for (let tries = 0; ; tries += 1) {
    const [row] = await tx.query<{ taken: boolean }>(
      `SELECT pg_try_advisory_xact_lock($1::int, hashtext(COALESCE($2::text, current_schema()))) AS taken`,
      [lockClass, schema ?? null],
    )
    if (row?.taken === true) return
    if (tries === 0) options.onWait?.()
    if (Date.now() >= deadline)
      throw new Error(
        `Failed to start: another server has been ${what} for ${waitMs / 1000} s and still is; start this one once it is done.`,
      )
    await new Promise((resolve) => setTimeout(resolve, Math.min(pollMs, 20 * 2 ** tries)))
  }
}
