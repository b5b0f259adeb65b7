// Several servers on one fresh, migrated SQL schema, started one after another as a rolling deploy would: what the
// cross-instance tests (mock-server/src/compose/shared-*.test.ts) start.
import { createApp, type MockApp } from '../src/app.ts'
import type { MockOptions } from '../src/compose/options.ts'
import { PRODUCT_MIGRATIONS } from '../src/product/storage/migrations.ts'
import { migrate } from '../src/shared/sql-migrate.ts'
import type { SqlClient } from '../src/shared/sql.ts'
import type { createSqlEngines, Engine, FreshDatabase } from './sql-stores.ts'

type Engines = ReturnType<typeof createSqlEngines>

/** The engines a cross-instance test runs on: PostgreSQL is skipped only where none can be had (never in CI). */
export const sharedEngines = (databaseUrl: string | null) => [
  { engine: 'pglite' as const, missing: false },
  { engine: 'postgres' as const, missing: databaseUrl === null },
]

/** A fresh schema with the product's migrations applied. */
export async function migratedSchema(engines: Engines, engine: Engine): Promise<FreshDatabase> {
  const database = await engines.fresh(engine)
  await migrate(database.sql, PRODUCT_MIGRATIONS, database.schema)
  return database
}

/**
 * @example
 * const { apps, sql, schema } = await serversOnOneDatabase(engines, 'pglite', 3, { publicOrigin })
 */
export async function serversOnOneDatabase(
  engines: Engines,
  engine: Engine,
  count: number,
  options: Partial<MockOptions> = {},
): Promise<FreshDatabase & { apps: MockApp[] }> {
  const { sql, schema } = await migratedSchema(engines, engine)
  const apps: MockApp[] = []
  for (let index = 0; index < count; index += 1) apps.push(await serverOn(sql, schema, options))
  return { apps, sql, schema }
}

/**
 * One server on `schema` through `client` (a wrapped one, for a test that holds its statements), ready.
 * @example const app = await serverOn(holdingClient(sql).client, schema)
 */
export async function serverOn(
  client: SqlClient,
  schema: string,
  options: Partial<MockOptions> = {},
): Promise<MockApp> {
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 }, ...options, sql: { client, schema } })
  await app.core.ready
  return app
}
