// Applies versioned migrations once each, in order, in one transaction under an advisory lock, so instances
// starting together on one database migrate it once and the others wait and find it done
// (docs/decisions/024-storage-port.md). A database migrated by a newer server is refused, never half-understood.
import { qualified, type SqlClient } from './sql.ts'

export interface Migration {
  version: number
  name: string
  sql: string
}

/** The advisory lock's key: any fixed number no other tool on the database uses (ASCII "authmock"). */
const LOCK_KEY = 0x617574686d6f636bn

/**
 * Returns the versions it applied (none when the database was current). With `schema`, the tables go there (made
 * when missing) rather than where the connection's search path points.
 */
export async function migrate(
  sql: SqlClient,
  migrations: readonly Migration[],
  schema?: string,
): Promise<number[]> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [LOCK_KEY.toString()])
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
