// Several servers on one SQL database behave as one for the identity provider and the external sign-ins
// (docs/mock-server.md, "Where the state lives"): a sign-in started on one is finished on another, a code is
// presented once across all of them, and a reset through one clears them for all.
import { createHash } from 'node:crypto'
import request from 'supertest'
import { afterAll, describe, expect, inject, test } from 'vitest'
import { createSqlEngines, sqlEngineCases } from '../../testing/sql-stores.ts'
import { serversOnOneDatabase } from '../../testing/shared-servers.ts'
import type { MockApp } from '../app.ts'
import { SEED_ACCOUNTS } from '../product/domain/seed.ts'
import { qualified } from '../shared/sql.ts'

const databaseUrl = inject('databaseUrl')
const engines = createSqlEngines(databaseUrl)
afterAll(() => engines.close())

const ORIGIN = 'http://127.0.0.1:4010'
const VERIFIER = 'v'.repeat(43)
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url')

/** The product's authorize call on `app`: where the browser goes next, and the cookie binding it. */
async function startSignIn(app: MockApp, state: string) {
  const start = await request(app).get(`/api/auth/external/authorize?state=${state}`).expect(302)
  const cookie = [start.headers['set-cookie'] ?? []].flat().find((line) => line.startsWith('sso='))
  return { authorize: new URL(start.headers.location!), cookie: cookie!.split(';')[0]! }
}

/** The provider's form shown by `shows`, answered on `answers`: the code it sends back. */
async function signInThroughForm(shows: MockApp, answers: MockApp, authorize: URL, email: string) {
  const form = await request(shows).get(`${authorize.pathname}${authorize.search}`).expect(200)
  const id = /name="request" value="([^"]+)"/.exec(form.text)![1]!
  const back = await request(answers)
    .post('/idp/authorize')
    .type('form')
    .send({ request: id, email })
    .expect(302)
  return new URL(back.headers.location!).searchParams.get('code')!
}

/** A client registered on `app`, and a code for Ada issued to it without the form (prompt=none). */
async function registeredClientCode(registers: MockApp, issues: MockApp) {
  const redirectUri = 'https://rp.example/callback'
  const client = await request(registers)
    .post('/__mock/idp/clients')
    .send({ redirect_uris: [redirectUri] })
    .expect(201)
  const query = new URLSearchParams({
    client_id: client.body.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    scope: 'openid email',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    prompt: 'none',
    login_hint: 'ada@example.com',
  })
  const back = await request(issues).get(`/idp/authorize?${query}`).expect(302)
  const code = new URL(back.headers.location!).searchParams.get('code')!
  const exchange = (app: MockApp) =>
    request(app)
      .post('/idp/token')
      .auth(client.body.client_id, client.body.client_secret)
      .type('form')
      .send({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: VERIFIER })
  return { client: client.body as { client_id: string }, exchange }
}

describe.each(sqlEngineCases(databaseUrl))(
  'the identity provider and external sign-ins on one $engine database',
  ({ engine, missing }) => {
    // Only outside CI: harness/postgres.ts fails the run under CI=true when PostgreSQL cannot be had.
    const it = missing ? test.skip : test

    it('an external sign-in started on one server completes on another, its form shown and answered on others', async () => {
      const { apps, sql, schema } = await serversOnOneDatabase(engines, engine, 3, { publicOrigin: ORIGIN })
      const [a, b, c] = apps as [MockApp, MockApp, MockApp]
      const state = 'state-started-on-a-0123456789'
      const { authorize, cookie } = await startSignIn(a, state)
      // The table holds no state, nonce or verifier a reader could use (compose/sql-sign-ins.ts).
      const rows = await sql.query(`SELECT * FROM ${qualified('pending_sign_ins', schema)}`)
      expect(rows).toHaveLength(1)
      const stored = JSON.stringify(rows)
      for (const secret of [state, authorize.searchParams.get('nonce')!, cookie.slice('sso='.length)])
        expect(stored).not.toContain(secret)
      const code = await signInThroughForm(b, c, authorize, 'grace@example.com')
      const signedIn = await request(b)
        .post('/api/auth/callback')
        .set('Cookie', cookie)
        .send({ code, state })
        .expect(200)
      const me = await request(c)
        .get('/api/me')
        .set({ Authorization: `Bearer ${signedIn.body.token}` })
        .expect(200)
      expect(me.body.email).toBe('grace@example.com')
    }, 120_000)

    it('a callback sent to two servers at once is taken once', async () => {
      const { apps } = await serversOnOneDatabase(engines, engine, 2, { publicOrigin: ORIGIN })
      const [a, b] = apps as [MockApp, MockApp]
      const state = 'state-raced-0123456789abcdef'
      const { authorize, cookie } = await startSignIn(a, state)
      const code = await signInThroughForm(a, b, authorize, 'ada@example.com')
      const answers = await Promise.all(
        [a, b, a, b].map((app) =>
          request(app).post('/api/auth/callback').set('Cookie', cookie).send({ code, state }),
        ),
      )
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400])
      for (const answer of answers.filter((refused) => refused.status === 400))
        expect(answer.body.error).toBe('invalid_callback')
    }, 120_000)

    it('a client registered on one server signs in on another; a code exchanged on one and replayed on another revokes its token', async () => {
      const { apps } = await serversOnOneDatabase(engines, engine, 3, { publicOrigin: ORIGIN })
      const [a, b, c] = apps as [MockApp, MockApp, MockApp]
      const { exchange } = await registeredClientCode(a, b)
      const tokens = await exchange(a).expect(200)
      const bearer = { Authorization: `Bearer ${tokens.body.access_token}` }
      expect((await request(c).get('/idp/userinfo').set(bearer).expect(200)).body.email).toBe(
        'ada@example.com',
      )
      // The ID token is signed with the key every server publishes.
      const header = JSON.parse(Buffer.from(tokens.body.id_token.split('.')[0], 'base64url').toString())
      for (const app of apps)
        expect((await request(app).get('/idp/jwks').expect(200)).body.keys[0].kid).toBe(header.kid)
      const replayed = await exchange(b).expect(400)
      expect(replayed.body).toEqual({
        error: 'invalid_grant',
        error_description: 'The code was already used.',
      })
      for (const app of apps) await request(app).get('/idp/userinfo').set(bearer).expect(401)
    }, 120_000)

    it('one code presented to three servers at once is taken once, and the replays leave no live token', async () => {
      const { apps } = await serversOnOneDatabase(engines, engine, 3, { publicOrigin: ORIGIN })
      const { exchange } = await registeredClientCode(apps[0]!, apps[1]!)
      const answers = await Promise.all(apps.map((app) => exchange(app)))
      // The winner answers 200, or is refused too when a replay came before its token was issued.
      expect(answers.filter((answer) => answer.status === 200).length).toBeLessThanOrEqual(1)
      for (const answer of answers.filter((refused) => refused.status !== 200))
        expect(answer.body).toEqual({
          error: 'invalid_grant',
          error_description: 'The code was already used.',
        })
      for (const answer of answers.filter((bought) => bought.status === 200))
        for (const app of apps)
          await request(app)
            .get('/idp/userinfo')
            .set({ Authorization: `Bearer ${answer.body.access_token}` })
            .expect(401)
    }, 120_000)

    it('a reset through one server clears the provider and the waiting sign-ins for all; the seed stays once', async () => {
      const { apps } = await serversOnOneDatabase(engines, engine, 3, { publicOrigin: ORIGIN })
      const [a, b, c] = apps as [MockApp, MockApp, MockApp]
      const seeds = SEED_ACCOUNTS.filter((account) => account.verified).map((account) => account.email)
      // Three servers started on one database seeded its accounts once.
      expect((await c.core.ops.idp!.accounts.list()).map((account) => account.email).sort()).toEqual(
        [...seeds].sort(),
      )
      await request(a).post('/__mock/idp/accounts').send({ email: 'lin@example.com' }).expect(201)
      const { client } = await registeredClientCode(a, a)
      const state = 'state-before-reset-0123456789'
      const { authorize, cookie } = await startSignIn(a, state)
      const code = await signInThroughForm(a, a, authorize, 'ada@example.com')
      await request(b).post('/__mock/reset').send({}).expect(200)
      await request(c).post('/api/auth/callback').set('Cookie', cookie).send({ code, state }).expect(400)
      const unknown = await request(c).get(`/idp/authorize?client_id=${client.client_id}`).expect(400)
      expect(unknown.text).toContain('does not know')
      expect(await c.core.ops.idp!.accounts.get('lin@example.com')).toBeNull()
      expect((await c.core.ops.idp!.accounts.list()).map((account) => account.email).sort()).toEqual(
        [...seeds].sort(),
      )
    }, 120_000)
  },
)
