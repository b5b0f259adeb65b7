// The first start on an empty database (compose/sql-persistence.ts): the state is made before the row that says
// so goes in, so a start killed halfway leaves the database to the next start, and a data file imported into a
// database brings its secret with it.
import { join } from 'node:path'
import request from 'supertest'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { holdingClient } from '../../testing/holding-client.ts'
import { scratchDir } from '../../testing/scratch-dir.ts'
import { migratedSchema, serverOn } from '../../testing/shared-servers.ts'
import { createSqlEngines, sqlEngineCases } from '../../testing/sql-stores.ts'
import { createTcpProxy } from '../../testing/tcp-proxy.ts'
import { createApp } from '../app.ts'
import { openPostgres } from './sql-drivers.ts'

const databaseUrl = inject('databaseUrl')
const engines = createSqlEngines(databaseUrl)
afterAll(() => engines.close())

const hasher = { memoryCost: 1024, timeCost: 1 }
const ADA = { email: 'ada@example.com', password: 'analytical-engine-1843' }
/** Seeded after Ada (product/domain/seed.ts). */
const GRACE = { email: 'grace@example.com', password: 'compiler-pioneer-1952' }

// Only outside CI: harness/postgres.ts fails the run under CI=true when PostgreSQL cannot be had.
test.skipIf(databaseUrl === null)(
  'a start whose connection dies while it seeds leaves the database unclaimed: the next start seeds it',
  async () => {
    const { sql, schema } = await migratedSchema(engines, 'postgres')
    const direct = new URL(databaseUrl!)
    const proxy = await createTcpProxy({ host: direct.hostname, port: Number(direct.port || 5432) })
    const viaProxy = new URL(direct)
    viaProxy.hostname = '127.0.0.1'
    viaProxy.port = String(proxy.port)
    const dying = openPostgres(viaProxy.href, () => undefined)
    try {
      const held = holdingClient(dying)
      // The seed's first account is written; the start's connections die before the next, as when it is killed.
      const seeding = held.holdNext(/^INSERT INTO \S+\.users /)
      const first = createApp({ hasher, sql: { client: held.client, schema }, logError: () => undefined })
      const started = first.core.ready.then(
        () => 'ready',
        () => 'failed',
      )
      await seeding.caught
      await proxy.cut()
      seeding.release()
      expect(await started).toBe('failed')

      const next = await serverOn(sql, schema)
      for (const account of [ADA, GRACE]) {
        const signedIn = await request(next).post('/api/auth/login').send(account).expect(200)
        await request(next).get('/api/me').set('Authorization', `Bearer ${signedIn.body.token}`).expect(200)
      }
    } finally {
      await dying.close()
      await proxy.close()
    }
  },
  60_000,
)

test.skipIf(databaseUrl === null)(
  'servers started at once on an empty database seed it once and all sign with one secret',
  async () => {
    const { sql, schema } = await migratedSchema(engines, 'postgres')
    const apps = await Promise.all([0, 1, 2, 3].map(() => serverOn(sql, schema)))
    expect(new Set(apps.map((app) => app.core.ops.domain.config.secret)).size).toBe(1)
    const signedIn = await request(apps[3]!).post('/api/auth/login').send(GRACE).expect(200)
    for (const app of apps)
      await request(app).get('/api/me').set('Authorization', `Bearer ${signedIn.body.token}`).expect(200)
    const [row] = await sql.query<{ count: number }>(`SELECT count(*)::int AS count FROM ${schema}.users`)
    expect(row!.count).toBe(3)
  },
  60_000,
)

test.skipIf(databaseUrl === null)(
  'a row written beside the first start without its lock (a server of an earlier release) is loaded, not ignored',
  async () => {
    const { sql, schema } = await migratedSchema(engines, 'postgres')
    const held = holdingClient(sql)
    const seeding = held.holdNext(/^INSERT INTO \S+\.users /)
    const first = createApp({ hasher, sql: { client: held.client, schema }, logError: () => undefined })
    await seeding.caught
    // An earlier release claimed the row first, then seeded.
    const theirs = 'b'.repeat(64)
    await sql.query(`INSERT INTO ${schema}.server_meta (key, value) VALUES ('server', $1::jsonb)`, [
      JSON.stringify({ secret: theirs, clockOffsetMs: 0 }),
    ])
    seeding.release()
    await first.core.ready
    expect(first.core.ops.domain.config.secret).toBe(theirs)
  },
  60_000,
)

test.skipIf(databaseUrl === null)(
  'a start waiting on the seed lock of another says so in one line, and starts once it is free',
  async () => {
    const { sql, schema } = await migratedSchema(engines, 'postgres')
    let release = () => undefined as void
    const released = new Promise<void>((resolve) => (release = resolve))
    let locked = () => undefined as void
    const isLocked = new Promise<void>((resolve) => (locked = resolve))
    // Another server holds the first start's lock (class "seed") while it seeds.
    const seeding = sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1::int, hashtext($2::text))', [0x73656564, schema])
      locked()
      await released
    })
    await isLocked
    const lines: string[] = []
    const waiting = createApp({ hasher, sql: { client: sql, schema }, logError: (line) => lines.push(line) })
    await expect
      .poll(() => lines, { timeout: 30_000 })
      .toContain('Another server is seeding the database: waiting for it to finish.')
    release()
    await seeding
    await waiting.core.ready
    await request(waiting).post('/api/auth/login').send(ADA).expect(200)
  },
  60_000,
)

describe.each(sqlEngineCases(databaseUrl))('a data file imported on $engine', ({ engine, missing }) => {
  test.skipIf(missing)(
    'brings its secret into the database: its tokens hold on another server there',
    async () => {
      // A data file a server without a database wrote.
      const dataFile = join(scratchDir('first-start'), 'state.json')
      const before = createApp({ hasher, dataFile })
      await before.core.ready
      const signedIn = await request(before).post('/api/auth/login').send(ADA).expect(200)
      await before.core.flush()
      const bearer = { Authorization: `Bearer ${signedIn.body.token}` }

      const { sql, schema } = await migratedSchema(engines, engine)
      const importing = createApp({ hasher, dataFile, sql: { client: sql, schema }, log: () => undefined })
      await importing.core.ready
      await request(importing).get('/api/me').set(bearer).expect(200)
      const other = await serverOn(sql, schema)
      await request(other).get('/api/me').set(bearer).expect(200)
    },
    60_000,
  )
})
