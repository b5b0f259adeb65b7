// A statement PostgreSQL cannot finish in time (a lock held by a migration, a long transaction) is cancelled by
// PostgreSQL itself and answered 503 with Retry-After (docs/deploying.md): nothing of the call is written after its
// answer, so a client that sends its refresh token again as told keeps its session. And a database that takes no
// writes (a primary a failover demoted) answers 503 and fails readiness, never a 500.
import pg from 'pg'
import request from 'supertest'
import { afterAll, expect, inject, test } from 'vitest'
import { createSqlEngines } from '../../testing/sql-stores.ts'
import { createApp } from '../app.ts'
import { PRODUCT_MIGRATIONS } from '../product/storage/migrations.ts'
import type { SqlClient } from '../shared/sql.ts'
import { migrate } from '../shared/sql-migrate.ts'
import { ServiceUnavailableError, UNAVAILABLE_RETRY_AFTER_S } from '../shared/unavailable.ts'
import { isUnreachable, openPostgres } from './sql-drivers.ts'
import { storeProbesOf } from './state-store.ts'

const databaseUrl = inject('databaseUrl')!
const engines = createSqlEngines(databaseUrl)
const closing: Array<() => Promise<void>> = []
afterAll(async () => {
  for (const close of closing.splice(0)) await close()
  await engines.close()
})

const ADA = { email: 'ada@example.com', password: 'analytical-engine-1843' }
const hasher = { memoryCost: 1024, timeCost: 1 }

/** A connection of its own, as psql or a migration of another release would hold one. */
async function session(): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  closing.push(() => client.end())
  return client
}

/** A server on a fresh schema whose statements PostgreSQL cancels after 1 s. */
async function serverWithShortStatements() {
  const { sql, schema } = await engines.fresh('postgres')
  await migrate(sql, PRODUCT_MIGRATIONS, schema)
  const client = openPostgres(databaseUrl, () => undefined, { statementTimeoutMs: 1_000 })
  closing.push(() => client.close())
  const app = createApp({ hasher, sql: { client, schema }, logError: () => undefined })
  await app.core.ready
  return { app, schema }
}

test('a refresh that waits past the statement time-out on a lock is answered 503, and is not carried out later', async () => {
  const { app, schema } = await serverWithShortStatements()
  const login = await request(app).post('/api/auth/login').send(ADA).expect(200)
  const refreshToken = login.body.refresh_token as string
  const holder = await session()
  await holder.query('BEGIN')
  await holder.query(`LOCK TABLE ${schema}.refresh_tokens IN SHARE MODE`)
  const refused = await request(app).post('/api/refresh_token').send({ refresh_token: refreshToken })
  expect({ status: refused.status, retryAfter: refused.headers['retry-after'] }).toEqual({
    status: 503,
    retryAfter: String(UNAVAILABLE_RETRY_AFTER_S),
  })
  // Nothing of the call still waits on the lock, to be written once it goes.
  const waiting = await holder.query(
    `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = '${schema}.refresh_tokens'::regclass`,
  )
  expect(waiting.rows[0].n).toBe(0)
  await holder.query('COMMIT')
  await request(app).post('/api/refresh_token').send({ refresh_token: refreshToken }).expect(200)
  const me = await request(app).get('/api/me').set('Authorization', `Bearer ${login.body.token}`)
  expect(me.status).toBe(200)
}, 60_000)

test('PostgreSQL cancelling a statement, or refusing a write, says the database is unavailable, not the call wrong', () => {
  const sqlstate = (code: string) => Object.assign(new Error('from the server'), { code })
  expect(isUnreachable(sqlstate('57014'))).toBe(true) // query_canceled: statement_timeout
  expect(isUnreachable(sqlstate('25006'))).toBe(true) // read_only_sql_transaction
  expect(isUnreachable(sqlstate('23505'))).toBe(false) // unique_violation: the statement's own
})

test('on a database that takes no writes, a write is a 503 and readiness fails; on one that does, it holds', async () => {
  const { sql, schema } = await engines.fresh('postgres')
  await migrate(sql, PRODUCT_MIGRATIONS, schema)
  const readOnly = new URL(databaseUrl)
  readOnly.searchParams.set('options', '-c default_transaction_read_only=on')
  const clients: SqlClient[] = [openPostgres(readOnly.href, () => undefined), sql]
  closing.push(() => clients[0]!.close())
  const write = (client: SqlClient) =>
    client.query(`INSERT INTO ${schema}.server_meta (key, value) VALUES ('probe', '{}'::jsonb)`)
  await expect(write(clients[0]!)).rejects.toBeInstanceOf(ServiceUnavailableError)
  await write(clients[1]!)
  const ready = async (client: SqlClient) => {
    const [probe] = storeProbesOf({ sql: { client, schema } })
    return probe!.check()
  }
  expect([await ready(clients[0]!), await ready(clients[1]!)]).toEqual([false, true])
}, 60_000)
