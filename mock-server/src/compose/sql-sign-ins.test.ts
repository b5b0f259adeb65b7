// The pending external sign-ins on SQL (sql-sign-ins.ts) keep the memory store's rules (pending-sign-ins.test.ts):
// found by state, only with the browser's binding, once, for a while, at most `max`; and sealed so the table shows
// none of what it keeps.
import { afterAll, describe, expect, inject, test } from 'vitest'
import { createSqlEngines, sqlEngineCases } from '../../testing/sql-stores.ts'
import { PRODUCT_MIGRATIONS } from '../product/storage/migrations.ts'
import { EXTERNAL_SIGN_IN_TTL_MS } from '../shared/constants.ts'
import { createControlClock } from '../shared/control-clock.ts'
import { migrate } from '../shared/sql-migrate.ts'
import { qualified } from '../shared/sql.ts'
import { createSqlPendingSignIns } from './sql-sign-ins.ts'

const databaseUrl = inject('databaseUrl')
const engines = createSqlEngines(databaseUrl)
afterAll(() => engines.close())

const STATE = 'state-0123456789abcdef'
const PENDING = {
  issuer: 'https://id.example',
  redirectUri: 'https://app.example/callback',
  nonce: 'nonce-0123456789abcdefghijklmnopq',
  codeVerifier: 'verifier-0123456789abcdefghijklmnopqrstuvwxyz',
}

async function signInsOn(engine: 'pglite' | 'postgres', options: { max?: number; secret?: string } = {}) {
  const { sql, schema } = await engines.fresh(engine)
  await migrate(sql, PRODUCT_MIGRATIONS, schema)
  const clock = createControlClock()
  const secret = options.secret ?? 'server-secret'
  const signIns = createSqlPendingSignIns(sql, clock, {
    schema,
    secret: () => secret,
    ...(options.max !== undefined && { max: options.max }),
  })
  const rows = () => sql.query(`SELECT * FROM ${qualified('pending_sign_ins', schema)}`)
  return { signIns, clock, rows, sql, schema }
}

describe.each(sqlEngineCases(databaseUrl))(
  'the sign-ins the product waits on, on $engine',
  ({ engine, missing }) => {
    const it = missing ? test.skip : test

    it('found by state, only with the browser’s binding, once; the table shows no state, binding, nonce or verifier', async () => {
      const { signIns, rows } = await signInsOn(engine)
      await signIns.add(STATE, 'browser-a', PENDING)
      const stored = JSON.stringify(await rows())
      for (const secret of [STATE, 'browser-a', PENDING.nonce, PENDING.codeVerifier])
        expect(stored).not.toContain(secret)
      expect(await signIns.take(STATE, 'browser-b')).toBeNull()
      expect(await signIns.take(STATE, undefined)).toBeNull()
      expect(await signIns.take(`${STATE}x`, 'browser-a')).toBeNull()
      expect(await signIns.take(STATE, 'browser-a')).toEqual(PENDING)
      expect(await signIns.take(STATE, 'browser-a')).toBeNull()
    }, 60_000)

    it('gone once EXTERNAL_SIGN_IN_TTL_MS has passed on the server’s clock', async () => {
      const { signIns, clock } = await signInsOn(engine)
      await signIns.add(STATE, 'browser-a', PENDING)
      clock.advance(EXTERNAL_SIGN_IN_TTL_MS)
      expect(await signIns.take(STATE, 'browser-a')).toBeNull()
    }, 60_000)

    it('at most `max` wait: the oldest goes first, and what expired goes with the next write', async () => {
      const { signIns, clock, rows } = await signInsOn(engine, { max: 2 })
      for (const state of ['state-1-0123456789', 'state-2-0123456789', 'state-3-0123456789'])
        await signIns.add(state, 'browser-a', PENDING)
      expect(await rows()).toHaveLength(2)
      expect(await signIns.take('state-1-0123456789', 'browser-a')).toBeNull()
      expect(await signIns.take('state-3-0123456789', 'browser-a')).toEqual(PENDING)
      clock.advance(EXTERNAL_SIGN_IN_TTL_MS)
      await signIns.add('state-4-0123456789', 'browser-a', PENDING)
      expect(await rows()).toHaveLength(1)
    }, 60_000)

    it('sealed under the server’s secret: a store with another secret opens nothing', async () => {
      const mine = await signInsOn(engine, { secret: 'one-secret' })
      await mine.signIns.add(STATE, 'browser-a', PENDING)
      const other = createSqlPendingSignIns(mine.sql, mine.clock, {
        schema: mine.schema,
        secret: () => 'another',
      })
      expect(await other.take(STATE, 'browser-a')).toBeNull()
    }, 60_000)

    it('of ten takes of one sign-in at once, one gets it', async () => {
      const { signIns } = await signInsOn(engine)
      await signIns.add(STATE, 'browser-a', PENDING)
      const taken = await Promise.all(Array.from({ length: 10 }, () => signIns.take(STATE, 'browser-a')))
      expect(taken.filter((pending) => pending !== null)).toEqual([PENDING])
    }, 60_000)
  },
)
