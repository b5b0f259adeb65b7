// The `account` tag (home, process, help) and every way a bearer token can be refused.
import { SignJWT } from 'jose'
import { beforeEach, describe, expect, test } from 'vitest'
import {
  advanceClock,
  bearer,
  createTestServer,
  type SignedIn,
  signUp,
  type TestServer,
  useTestServer,
} from '#contracts/fixtures.ts'
import { EXPIRY_TEST_TIMEOUT_MS, useExpiredSessions } from '#contracts/support/expiry.ts'
import { TARGET_URL } from '#contracts/support/target.ts'
import { createInProcessServer } from '#contracts/support/test-server.ts'

const server = useTestServer()
let account: SignedIn
beforeEach(async () => {
  account = await signUp(server.api, 'learner')
})

describe('GET /api/me', () => {
  test('answers the signed-in user', async () => {
    const res = await server.api.get('/api/me').set(bearer(account.token)).expect(200)
    expect(res.body).toEqual({ id: account.user.id, email: account.email, name: 'Test Learner' })
  })
})

describe('refusals of a protected call', () => {
  const expired = useExpiredSessions(4)
  const protectedCalls = [
    ['GET /api/me', (s: TestServer) => s.api.get('/api/me')],
    ['GET /api/process', (s: TestServer) => s.api.get('/api/process')],
    ['GET /api/help', (s: TestServer) => s.api.get('/api/help')],
    [
      'PATCH /api/process/steps/x',
      (s: TestServer) => s.api.patch('/api/process/steps/x').send({ status: 'done' }),
    ],
  ] as const

  test.each(protectedCalls)('%s without a token: 401 with no error code', async (_label, call) => {
    const res = await call(server).expect(401)
    expect(res.body.error).toBeUndefined()
    expect(res.headers['www-authenticate']).toBe('Bearer')
  })

  test.each(protectedCalls)(
    '%s with an expired token: token_expired',
    async (_label, call) => {
      const { token } = await expired.take(server.api)
      expect((await call(server).set(bearer(token)).expect(401)).body.error).toBe('token_expired')
    },
    EXPIRY_TEST_TIMEOUT_MS,
  )

  test.each(protectedCalls)('%s with a malformed token: token_invalid', async (_label, call) => {
    expect((await call(server).set(bearer('not.a.jwt')).expect(401)).body.error).toBe('token_invalid')
  })

  test('the default access-token lifetime is 15 minutes', async () => {
    await advanceClock(server.api, 15 * 60_000 - 2_000)
    const { exp, iat } = JSON.parse(Buffer.from(account.token.split('.')[1]!, 'base64url').toString()) as {
      exp: number
      iat: number
    }
    expect(exp - iat).toBe(15 * 60)
    await server.api.get('/api/me').set(bearer(account.token)).expect(200)
  })

  test('a token signed with another key, or with alg none, is token_invalid', async () => {
    const claims = { sid: 'x', sub: account.user.id, jti: 'j' }
    const forged = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('auth-shell-mock')
      .setIssuedAt()
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('a guessed secret'))
    expect((await server.api.get('/api/me').set(bearer(forged)).expect(401)).body.error).toBe('token_invalid')
    const [, payload] = account.token.split('.')
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`
    expect((await server.api.get('/api/me').set(bearer(none)).expect(401)).body.error).toBe('token_invalid')
  })

  test("a token of another server's session is token_invalid", async () => {
    // Against a target, the other server is an in-process one: its tokens are signed with a key of its own.
    const other = TARGET_URL ? await createInProcessServer() : await createTestServer()
    const stranger = await signUp(other.api)
    expect((await server.api.get('/api/me').set(bearer(stranger.token)).expect(401)).body.error).toBe(
      'token_invalid',
    )
  })

  test('a token whose session was ended is session_revoked', async () => {
    await server.api.delete('/api/_auth/session').set('Cookie', account.cookie).expect(200)
    expect((await server.api.get('/api/me').set(bearer(account.token)).expect(401)).body.error).toBe(
      'session_revoked',
    )
  })

  test('the access token carries exp, iat, sub, sid and jti, signed HS256', async () => {
    const [header, payload] = account.token
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()))
    expect(header.alg).toBe('HS256')
    expect(Object.keys(payload)).toEqual(expect.arrayContaining(['exp', 'iat', 'sub', 'sid', 'jti']))
    expect(payload.exp).toBeGreaterThan(payload.iat)
  })
})

describe('the process', () => {
  test('lists the steps in order, each with a status and a schedule', async () => {
    const res = await server.api.get('/api/process').set(bearer(account.token)).expect(200)
    expect(res.body.steps.length).toBeGreaterThanOrEqual(4)
    expect(res.body.steps[0]).toMatchObject({
      title: 'Create your account',
      status: 'done',
      scheduled_at: null,
    })
  })

  test('schedules a step and changes its status; the change is kept', async () => {
    const { api } = server
    const steps = (await api.get('/api/process').set(bearer(account.token))).body.steps
    const id = steps[3].id as string
    const res = await api
      .patch(`/api/process/steps/${id}`)
      .set(bearer(account.token))
      .send({ status: 'in_progress', scheduled_at: '2026-12-01T10:30:00+01:00' })
      .expect(200)
    expect(res.body).toMatchObject({ id, status: 'in_progress', scheduled_at: '2026-12-01T09:30:00.000Z' })
    const again = (await api.get('/api/process').set(bearer(account.token))).body.steps[3]
    expect(again).toEqual(res.body)
    await api
      .patch(`/api/process/steps/${id}`)
      .set(bearer(account.token))
      .send({ scheduled_at: null })
      .expect(200)
  })

  test("another user's step is 404, and is left alone", async () => {
    const { api } = server
    const other = await signUp(api, 'other')
    const theirs = (await api.get('/api/process').set(bearer(other.token))).body.steps[1]
    const res = await api
      .patch(`/api/process/steps/${theirs.id}`)
      .set(bearer(account.token))
      .send({ status: 'done' })
      .expect(404)
    expect(res.body.error).toBe('not_found')
    expect((await api.get('/api/process').set(bearer(other.token))).body.steps[1].status).toBe('todo')
  })

  test.each([
    ['an unknown status', { status: 'finished' }],
    ['a date that is not a date-time', { scheduled_at: 'tomorrow' }],
    ['an empty patch', {}],
    ['an unknown field', { title: 'renamed' }],
  ])('refuses %s', async (_label, patch) => {
    const steps = (await server.api.get('/api/process').set(bearer(account.token))).body.steps
    const res = await server.api
      .patch(`/api/process/steps/${steps[1].id}`)
      .set(bearer(account.token))
      .send(patch)
      .expect(400)
    expect(res.body.error).toBe('validation_failed')
  })

  test.each([
    // The offset takes it out of the years a date-time can write: a rule the schema cannot state.
    ['0000-01-01T00:00:00+23:59', 'date_out_of_range'],
    ['9999-12-31T23:59:59-00:01', 'date_out_of_range'],
    // A leap second: the schema's pattern refuses it.
    ['2026-12-31T23:59:60Z', 'validation_failed'],
  ])(
    'refuses %s, a date-time the server cannot store, with %s, and keeps the step',
    async (scheduledAt, code) => {
      const steps = (await server.api.get('/api/process').set(bearer(account.token))).body.steps
      const res = await server.api
        .patch(`/api/process/steps/${steps[2].id}`)
        .set(bearer(account.token))
        .send({ scheduled_at: scheduledAt })
        .expect(400)
      expect(res.body.error).toBe(code)
      expect(res.body.fields).toHaveProperty('scheduled_at')
      const after = (await server.api.get('/api/process').set(bearer(account.token)).expect(200)).body
      expect(after.steps[2]).toEqual(steps[2])
    },
  )

  test('refuses wrong media types and oversized bodies', async () => {
    const call = () => server.api.patch('/api/process/steps/x').set(bearer(account.token))
    await call().set('Content-Type', 'text/plain').send('x').expect(415)
    await call()
      .send({ status: 'x'.repeat(17_000) })
      .expect(413)
  })
})

describe('help', () => {
  test('lists the articles with titles, bodies and tags', async () => {
    const res = await server.api.get('/api/help').set(bearer(account.token)).expect(200)
    expect(res.body.articles.length).toBeGreaterThanOrEqual(5)
    for (const article of res.body.articles) expect(article.tags.length).toBeGreaterThan(0)
  })
})
