// The SQL engines a test runs stores on: one PGlite and one PostgreSQL pool per test file, each store in a schema
// of its own (so stores never meet, and a store costs a schema, not an engine: PGlite takes seconds to start).
import { randomBytes } from 'node:crypto'
import { openPglite, openPostgres } from '../src/compose/sql-drivers.ts'
import type { SqlClient } from '../src/shared/sql.ts'

export type Engine = 'pglite' | 'postgres'

export interface FreshDatabase {
  sql: SqlClient
  schema: string
}

/**
 * @example
 * const engines = createSqlEngines(inject('databaseUrl'))
 * afterAll(() => engines.close())
 * const { sql, schema } = await engines.fresh('pglite')
 */
export function createSqlEngines(databaseUrl: string | null) {
  const open: Partial<Record<Engine, Promise<SqlClient>>> = {}
  const engine = (name: Engine): Promise<SqlClient> => {
    if (name === 'postgres' && !databaseUrl)
      throw new Error('Failed to open PostgreSQL: no database URL (harness/postgres.ts).')
    open[name] ??=
      name === 'pglite' ? openPglite() : Promise.resolve(openPostgres(databaseUrl!, () => undefined))
    return open[name]
  }
  const schemas: { sql: SqlClient; schema: string }[] = []
  const dropSchemas = async () => {
    for (const { sql, schema } of schemas.splice(0)) await sql.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
  }
  return {
    /** Starts the engine ahead (PGlite takes seconds), so a test's timeout is spent on the test. */
    warm: async (name: Engine): Promise<void> => void (await engine(name)),
    /** An empty schema on that engine; its tables are made by whoever migrates it. */
    async fresh(name: Engine): Promise<FreshDatabase> {
      const sql = await engine(name)
      const schema = `t_${randomBytes(6).toString('hex')}`
      schemas.push({ sql, schema })
      return { sql, schema }
    },
    /** Drops every schema made so far; the engines stay open for the next. */
    dropSchemas,
    /** Drops every schema made, then closes the engines. */
    async close(): Promise<void> {
      await dropSchemas()
      for (const sql of Object.values(open)) await (await sql).close()
    },
  }
}
