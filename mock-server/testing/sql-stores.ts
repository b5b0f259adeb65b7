// The SQL engines a test runs stores on: one PGlite and one PostgreSQL pool per test file, each store in a schema
// of its own (so stores never meet, and a store costs a schema, not an engine: PGlite takes a second to start even
// from its template, pglite-template.ts).
import { randomBytes } from 'node:crypto'
import { openPostgres } from '../src/compose/sql-drivers.ts'
import type { SqlClient } from '../src/shared/sql.ts'
import { migrate, type Migration } from '../src/shared/sql-migrate.ts'
import { openPgliteFromTemplate } from './pglite-template.ts'

export type Engine = 'pglite' | 'postgres'

export interface FreshDatabase {
  sql: SqlClient
  schema: string
}

/** A used schema, renamed and emptied, ready for the next store, and its shape (shapeOf). */
interface Spare {
  schema: string
  shape: string
}

/** The tables of `schema`, and its shape: those tables and the migrations applied, as one comparable text. */
async function shapeOf(sql: SqlClient, schema: string): Promise<{ tables: string[]; shape: string }> {
  const rows = await sql.query<{ tablename: string }>(
    `SELECT c.relname AS tablename FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
    [schema],
  )
  const versions = await sql.query<{ version: number }>(
    `SELECT version FROM ${schema}.schema_migrations ORDER BY version`,
  )
  const tables = rows.map((row) => row.tablename)
  return { tables, shape: `${tables.join(',')} @ ${versions.map((row) => row.version).join(',')}` }
}

/** What a fresh migration makes: its shape (shapeOf) and its sequences' names, found once per set of migrations. */
interface Fresh {
  shape: string
  sequences: string[]
}

/** The sequences of `schema`, from pg_class: the pg_sequences view reads every sequence of every schema. */
async function sequencesOf(sql: SqlClient, schema: string): Promise<string[]> {
  const rows = await sql.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = $1 AND c.relkind = 'S' ORDER BY c.relname`,
    [schema],
  )
  return rows.map((row) => row.name)
}

/**
 * Hands a used schema on as an empty one, or drops it and says so (null) when its tables are not those a fresh
 * migration makes. It is renamed first, so a late call of the server that used it meets no table rather than the
 * next store's; then every table but schema_migrations is emptied and the fresh migration's sequences restarted (one
 * gone makes setval fail, and the schema is dropped). Emptying costs about 2 ms on PGlite where dropping and
 * migrating anew cost about 80 (docs/decisions/025-ci-minutes.md).
 */
async function recycle(sql: SqlClient, schema: string, fresh: Fresh): Promise<Spare | null> {
  const renamed = `t_${randomBytes(6).toString('hex')}`
  await sql.exec(`ALTER SCHEMA ${schema} RENAME TO ${renamed}`)
  try {
    const now = await shapeOf(sql, renamed)
    if (now.shape !== fresh.shape) throw new Error('not the shape of a fresh migration')
    const tables = now.tables.filter((table) => table !== 'schema_migrations')
    await sql.transaction(async (tx) => {
      await tx.exec(tables.map((table) => `DELETE FROM ${renamed}.${table};`).join('\n'))
      await tx.query('SELECT setval(name::regclass, 1, false) FROM unnest($1::text[]) AS name', [
        fresh.sequences.map((name) => `${renamed}.${name}`),
      ])
    })
    return { schema: renamed, shape: fresh.shape }
  } catch {
    await sql.exec(`DROP SCHEMA IF EXISTS ${renamed} CASCADE`)
    return null
  }
}

/**
 * @example
 * const engines = createSqlEngines(inject('databaseUrl'))
 * afterAll(() => engines.close())
 * const { sql, schema } = await engines.fresh('pglite')
 */
/**
 * The SQL engines a test runs on, for `describe.each`: PostgreSQL `missing` where no URL came (outside CI only:
 * harness/postgres.ts fails the run under CI=true when PostgreSQL cannot be had).
 */
export function sqlEngineCases(databaseUrl: string | null): { engine: Engine; missing: boolean }[] {
  return [
    { engine: 'pglite', missing: false },
    { engine: 'postgres', missing: databaseUrl === null },
  ]
}

/**
 * How long a hook may wait for `warm`: the first PGlite of a clean clone runs initdb (or loads its template), niced
 * beside the other legs of `npm test`; on the slower machine of docs/decisions/025-ci-minutes.md one took past 60 s
 * with reviewers' tests running beside the suite. As long as a server's first start on a new --data folder gets
 * (testing/run-main.ts).
 */
export const WARM_TIMEOUT_MS = 240_000

export function createSqlEngines(databaseUrl: string | null) {
  const open: Partial<Record<Engine, Promise<SqlClient>>> = {}
  const engine = (name: Engine): Promise<SqlClient> => {
    if (name === 'postgres' && !databaseUrl)
      throw new Error('Failed to open PostgreSQL: no database URL (harness/postgres.ts).')
    open[name] ??=
      name === 'pglite'
        ? openPgliteFromTemplate()
        : Promise.resolve(openPostgres(databaseUrl!, () => undefined))
    return open[name]
  }
  const schemas: { sql: SqlClient; schema: string; engine: Engine; migrations?: readonly Migration[] }[] = []
  // Per engine: the used schemas emptied for the next store, and the shape a fresh migration gives.
  const spares: Partial<Record<Engine, Spare[]>> = {}
  const shapes = new Map<readonly Migration[], Fresh>()
  const dropSchemas = async () => {
    for (const { sql, schema, engine, migrations } of schemas.splice(0)) {
      // PGlite only: it runs one statement at a time for every server of the process, so no call of the server
      // that used the schema is half done when it is renamed. On PostgreSQL a call begun before the rename could
      // still commit after the emptying.
      const fresh = engine === 'pglite' && migrations ? shapes.get(migrations) : undefined
      const spare = fresh ? await recycle(sql, schema, fresh).catch(() => null) : null
      if (spare) (spares[engine] ??= []).push(spare)
      else await sql.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
    }
  }
  return {
    /** Starts the engine ahead (PGlite takes seconds), so a test's timeout is spent on the test. */
    warm: async (name: Engine): Promise<void> => void (await engine(name)),
    /** An empty schema on that engine; its tables are made by whoever migrates it. */
    async fresh(name: Engine): Promise<FreshDatabase> {
      const sql = await engine(name)
      const schema = `t_${randomBytes(6).toString('hex')}`
      schemas.push({ sql, schema, engine: name })
      return { sql, schema }
    },
    /**
     * A schema with `migrations` applied and no rows: one an earlier file used, emptied (see recycle), or a fresh
     * one migrated now.
     */
    async migrated(name: Engine, migrations: readonly Migration[]): Promise<FreshDatabase> {
      const sql = await engine(name)
      const spare = spares[name]?.find((one) => one.shape === shapes.get(migrations)?.shape)
      if (spare) {
        spares[name]!.splice(spares[name]!.indexOf(spare), 1)
        schemas.push({ sql, schema: spare.schema, engine: name, migrations })
        return { sql, schema: spare.schema }
      }
      const schema = `t_${randomBytes(6).toString('hex')}`
      schemas.push({ sql, schema, engine: name, migrations })
      await migrate(sql, migrations, schema)
      if (!shapes.has(migrations))
        shapes.set(migrations, {
          shape: (await shapeOf(sql, schema)).shape,
          sequences: await sequencesOf(sql, schema),
        })
      return { sql, schema }
    },
    /**
     * Drops every schema made so far, but for those made by `migrated`, which are emptied for the next; the
     * engines stay open.
     */
    dropSchemas,
    /** Drops every schema made, then closes the engines. */
    async close(): Promise<void> {
      await dropSchemas()
      for (const [name, list] of Object.entries(spares))
        for (const { schema } of list.splice(0))
          await (await engine(name as Engine)).exec(`DROP SCHEMA ${schema} CASCADE`)
      for (const sql of Object.values(open)) await (await sql).close()
    },
  }
}
