// A finding of the cluster soak (docs/security/attack-suite.md, T18), reduced to one process: a server that died
// right after writing a changed password's hash left the account's other sessions alive, and the client's retry
// could not repair it (its current password was now wrong). The other sessions now end before the hash changes.
import request from 'supertest'
import { afterAll, expect, test } from 'vitest'
import { createSqlEngines } from '../../testing/sql-stores.ts'
import { createApp } from '../app.ts'
import { PRODUCT_MIGRATIONS } from '../product/storage/migrations.ts'
import { migrate } from '../shared/sql-migrate.ts'
import type { SqlClient, SqlQueryable } from '../shared/sql.ts'

const engines = createSqlEngines(null)
afterAll(() => engines.close())

const hasher = { memoryCost: 1024, timeCost: 1 }
const ADA = { email: 'ada@example.com', password: 'analytical-engine-1843' }
const NEXT = 'difference-engine-1822'

/** The database as a process sees it that dies right after `fatal` ran: nothing after it reaches the database. */
function dyingAfter(client: SqlClient, fatal: RegExp): SqlClient {
  let dead = false
  const died = () => Promise.reject(new Error('the process died'))
  const wrap = (target: SqlQueryable): SqlQueryable => ({
    async query(text, params) {
      if (dead) return died()
      const rows = await target.query(text, params)
      if (fatal.test(text)) dead = true
      return rows as never
    },
    exec: (text) => (dead ? died() : target.exec(text)),
  })
  return {
    ...wrap(client),
    transaction: (work) => (dead ? died() : client.transaction((tx) => work(wrap(tx)))),
    close: async () => undefined,
  }
}

test('a server killed right after a changed password is written has already ended the other sessions', async () => {
  const { sql, schema } = await engines.fresh('pglite')
  await migrate(sql, PRODUCT_MIGRATIONS, schema)
  const first = createApp({ hasher, sql: { client: sql, schema }, logError: () => undefined })
  await first.core.ready
  const other = await request(first).post('/api/auth/login').send(ADA).expect(200)
  const mine = await request(first).post('/api/auth/login').send(ADA).expect(200)

  const dying = createApp({
    hasher,
    sql: { client: dyingAfter(sql, /^UPDATE \S+\.users SET password_hash/), schema },
    logError: () => undefined,
  })
  await dying.core.ready
  await request(dying)
    .post('/api/auth/update_password')
    .set('authorization', `Bearer ${String(mine.body.token)}`)
    .send({ current_password: ADA.password, password: NEXT })

  // The next instance: the change is there (the new password signs in) ...
  await request(first).post('/api/auth/login').send({ email: ADA.email, password: NEXT }).expect(200)
  // ... and so it must be whole: the other session ended, as an answered change ends it.
  const refreshed = await request(first)
    .post('/api/refresh_token')
    .send({ refresh_token: String(other.body.refresh_token) })
  expect(refreshed.status).toBe(401)
}, 90_000) // PGlite starts in seconds, more on a loaded machine.
