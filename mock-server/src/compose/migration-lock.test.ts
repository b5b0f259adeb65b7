// The migration lock (docs/deploying.md): a server starting while another migrates waits for it, however long the
// migration takes within MIGRATION_WAIT_MS, says so once, and then finds the database migrated; past the wait it
// stops with a reason of its own, not as if the database were out of reach. On PostgreSQL, where the lock is shared.
import pg from 'pg'
import { afterAll, expect, inject, test } from 'vitest'
import { createSqlEngines } from '../../testing/sql-stores.ts'
import { PRODUCT_MIGRATIONS } from '../product/storage/migrations.ts'
import { MIGRATION_LOCK_CLASS, migrate } from '../shared/sql-migrate.ts'

const databaseUrl = inject('databaseUrl')!
const engines = createSqlEngines(databaseUrl)
const holder = new pg.Client({ connectionString: databaseUrl })
const connected = holder.connect()
afterAll(async () => {
  await holder.end()
  await engines.close()
})

/** Holds `schema`'s migration lock from a session of its own, as another server migrating it does; the function lets it go. */
async function holdLock(schema: string): Promise<() => Promise<void>> {
  await connected
  const key = [MIGRATION_LOCK_CLASS, schema]
  await holder.query('SELECT pg_advisory_lock($1::int, hashtext($2::text))', key)
  return async () => void (await holder.query('SELECT pg_advisory_unlock($1::int, hashtext($2::text))', key))
}

test('a server finding the lock held says so once, waits, and migrates once it is free', async () => {
  const { sql, schema } = await engines.fresh('postgres')
  const release = await holdLock(schema)
  let waits = 0
  let told = () => {}
  const waiting = new Promise<void>((resolve) => (told = resolve))
  const migrating = migrate(sql, PRODUCT_MIGRATIONS, schema, {
    onWait: () => {
      waits += 1
      told()
    },
  })
  await Promise.race([waiting, migrating])
  await release()
  expect(await migrating).toEqual(PRODUCT_MIGRATIONS.map((migration) => migration.version))
  expect(waits).toBe(1)
}, 60_000)

test('past its wait, the start fails with its own reason', async () => {
  const { sql, schema } = await engines.fresh('postgres')
  const release = await holdLock(schema)
  try {
    await expect(migrate(sql, PRODUCT_MIGRATIONS, schema, { waitMs: 300 })).rejects.toThrow(
      'Failed to start: another server has been migrating the database for 0.3 s and still is',
    )
  } finally {
    await release()
  }
}, 60_000)

test("another schema's migration holds none of this one's", async () => {
  const [mine, other] = [await engines.fresh('postgres'), await engines.fresh('postgres')]
  const release = await holdLock(other.schema)
  try {
    let waits = 0
    const applied = await migrate(mine.sql, PRODUCT_MIGRATIONS, mine.schema, { onWait: () => (waits += 1) })
    expect({ applied, waits }).toEqual({
      applied: PRODUCT_MIGRATIONS.map((migration) => migration.version),
      waits: 0,
    })
  } finally {
    await release()
  }
}, 60_000)
