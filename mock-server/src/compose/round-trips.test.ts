// How often a signed-in call reads the database in production (docs/benchmarks.md, "Round trips"): a session GET
// and GET /api/me once, a refresh twice (its read, then its rotation). Counted at the store's SQL client, on PGlite.
import request from 'supertest'
import { afterAll, expect, inject, test } from 'vitest'
import { createSqlEngines } from '../../testing/sql-stores.ts'
import { createApp } from '../app.ts'
import { PRODUCT_MIGRATIONS } from '../product/storage/migrations.ts'
import type { SqlClient, SqlQueryable } from '../shared/sql.ts'
import { migrate } from '../shared/sql-migrate.ts'

const engines = createSqlEngines(inject('databaseUrl'))
afterAll(() => engines.close())

/** `client`, counting each statement it sends, inside a transaction too. */
function counting(client: SqlClient) {
  const statements: string[] = []
  const wrap = (db: SqlQueryable): SqlQueryable => ({
    query: (text, params) => (statements.push(text), db.query(text, params)),
    exec: (text) => (statements.push(text), db.exec(text)),
  })
  const counted: SqlClient = {
    ...wrap(client),
    transaction: (work) => client.transaction((tx) => work(wrap(tx))),
    close: () => client.close(),
  }
  return { counted, statements }
}

/** A server on a fresh PGlite schema, ada signed in, and the statements each call sends. */
async function signedIn({ production }: { production: boolean }) {
  const { sql, schema } = await engines.fresh('pglite')
  await migrate(sql, PRODUCT_MIGRATIONS, schema)
  const { counted, statements } = counting(sql)
  const hasher = { memoryCost: 1024, timeCost: 1 }
  const app = createApp({ hasher, production, seed: true, sql: { client: counted, schema } })
  await app.core.ready
  const login = await request(app)
    .post('/api/auth/login')
    .send({ email: 'ada@example.com', password: 'analytical-engine-1843' })
    .expect(200)
  const cookie = String(login.headers['set-cookie']).split(';')[0]!
  const tripsOf = async (send: () => Promise<unknown>) => {
    const before = statements.length
    await send()
    return statements.slice(before)
  }
  return { app, login, cookie, tripsOf }
}

test('in production, a signed-in session GET and /api/me read once, a refresh reads and rotates: two', async () => {
  const { app, login, cookie, tripsOf: statementsOf } = await signedIn({ production: true })
  const auth = { Authorization: `Bearer ${login.body.token}` }
  const tripsOf = async (send: () => Promise<unknown>) => (await statementsOf(send)).length
  expect(await tripsOf(() => request(app).get('/api/me').set(auth).expect(200))).toBe(1)
  const session = await request(app).get('/api/_auth/session').set('Cookie', cookie).expect(200)
  expect(session.body.user.email).toBe('ada@example.com')
  expect(await tripsOf(() => request(app).get('/api/_auth/session').set('Cookie', cookie).expect(200))).toBe(
    1,
  )
  const refresh = () =>
    request(app).post('/api/refresh_token').send({ refresh_token: login.body.refresh_token }).expect(200)
  expect(await tripsOf(refresh)).toBe(2)
}, 60_000)

test('in mock mode, the account a call belongs to is read once for a cookie and twice for a refresh token', async () => {
  const { app, login, cookie, tripsOf } = await signedIn({ production: false })
  // Before the call's own reads: the shared clock, the account (for the scenarios and the journal), the armed
  // scenarios; after: the journal entry.
  const session = await tripsOf(() =>
    request(app).get('/api/_auth/session').set('Cookie', cookie).expect(200),
  )
  expect(session, session.join('\n')).toHaveLength(5)
  const refresh = await tripsOf(() =>
    request(app).post('/api/refresh_token').send({ refresh_token: login.body.refresh_token }).expect(200),
  )
  expect(refresh, refresh.join('\n')).toHaveLength(7)
  const journal = await request(app).get('/__mock/requests').expect(200)
  expect(journal.body.requests.slice(-2).map((entry: { email?: string }) => entry.email)).toEqual([
    'ada@example.com',
    'ada@example.com',
  ])
}, 60_000)
