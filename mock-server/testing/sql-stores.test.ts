// A PGlite schema one contract file's servers used is handed to the next file emptied, not dropped and migrated
// anew (docs/decisions/025-ci-minutes.md): the next store must not tell it from a fresh one, and a late call of the
// server that used it must not reach the next store.
import { afterAll, beforeAll, expect, inject, test } from 'vitest'
import { PRODUCT_MIGRATIONS } from '../src/product/storage/migrations.ts'
import type { SqlClient } from '../src/shared/sql.ts'
import { createSqlEngines, WARM_TIMEOUT_MS } from './sql-stores.ts'

const engines = createSqlEngines(inject('databaseUrl'))
// PGlite takes seconds to start, more on a busy machine: started ahead, so each test's time is its own.
beforeAll(() => engines.warm('pglite'), WARM_TIMEOUT_MS)
afterAll(() => engines.close())

const addUser = async (sql: SqlClient, schema: string, id: string) =>
  Number(
    (
      await sql.query<{ seq: string | number }>(
        `INSERT INTO ${schema}.users (id, email, name, password_hash, verified, created_at)
       VALUES ($1, $2, 'Ada', 'h', true, 1) RETURNING seq`,
        [id, `${id}@example.com`],
      )
    )[0]!.seq,
  )

const tablesOf = async (sql: SqlClient, schema: string) =>
  (
    await sql.query<{ tablename: string }>(
      'SELECT tablename FROM pg_tables WHERE schemaname = $1 ORDER BY tablename',
      [schema],
    )
  ).map((row) => row.tablename)

test('a used schema comes back under a new name, empty, its sequences restarted; a late call of its server meets no table', async () => {
  const first = await engines.migrated('pglite', PRODUCT_MIGRATIONS)
  const fresh = await tablesOf(first.sql, first.schema)
  await addUser(first.sql, first.schema, 'a')
  expect(await addUser(first.sql, first.schema, 'b')).toBe(2)
  await engines.dropSchemas()

  const second = await engines.migrated('pglite', PRODUCT_MIGRATIONS)
  expect(second.schema).not.toBe(first.schema)
  expect(await tablesOf(second.sql, second.schema)).toEqual(fresh)
  for (const table of fresh.filter((name) => name !== 'schema_migrations'))
    expect(
      Number(
        (
          await second.sql.query<{ n: string | number }>(
            `SELECT count(*) AS n FROM ${second.schema}.${table}`,
          )
        )[0]!.n,
      ),
      table,
    ).toBe(0)
  const versions = await second.sql.query<{ version: number }>(
    `SELECT version FROM ${second.schema}.schema_migrations ORDER BY version`,
  )
  expect(versions.map((row) => row.version)).toEqual(PRODUCT_MIGRATIONS.map((one) => one.version))
  expect(await addUser(second.sql, second.schema, 'a')).toBe(1)
  await expect(addUser(first.sql, first.schema, 'c')).rejects.toThrow(/does not exist/)
  await engines.dropSchemas()
})

test('a used schema whose tables changed is dropped, and the next store gets a freshly migrated one', async () => {
  const first = await engines.migrated('pglite', PRODUCT_MIGRATIONS)
  const fresh = await tablesOf(first.sql, first.schema)
  await first.sql.exec(`DROP TABLE ${first.schema}.mails`)
  await engines.dropSchemas()

  const second = await engines.migrated('pglite', PRODUCT_MIGRATIONS)
  expect(await tablesOf(second.sql, second.schema)).toEqual(fresh)
  const left = await second.sql.query<{ nspname: string }>(
    "SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%'",
  )
  expect(left.map((row) => row.nspname)).toEqual([second.schema])
})
