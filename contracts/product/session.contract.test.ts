// The `session` tag: the cookie session, log-out, and the refresh rotation with its grace window and
// family revocation.
import { describe, expect, test } from 'vitest'
import {
  advanceClock,
  arm,
  bearer,
  createTestServer,
  readCode,
  refresh,
  serverWith,
  signUp,
  type TestServer,
  useTestServer,
} from '#contracts/fixtures.ts'
import { waitPast } from '#contracts/support/expiry.ts'

const server = useTestServer({ refreshGraceMs: 10_000 })

describe('GET /api/_auth/session', () => {
  test('is empty without a cookie, and holds the user with a live session cookie', async () => {
    const { api } = server
    expect((await api.get('/api/_auth/session').expect(200)).body).toEqual({})
    const account = await signUp(api)
    const res = await api.get('/api/_auth/session').set('Cookie', account.cookie).expect(200)
    expect(res.body.user).toEqual({ id: account.user.id, email: account.email, name: 'Test Learner' })
    expect(Date.parse(res.body.loggedInAt)).not.toBeNaN()
  })

  test('is empty for an unknown cookie', async () => {
    const res = await server.api.get('/api/_auth/session').set('Cookie', 'sid=forged-value').expect(200)
    expect(res.body).toEqual({})
  })

  test('answers 500 when the session-unavailable scenario is armed', async () => {
    await arm(server.api, { name: 'session-unavailable' })
    const res = await server.api.get('/api/_auth/session').expect(500)
    expect(res.body.error).toBe('session_unavailable')
    await server.api.get('/api/_auth/session').expect(200)
  })
})

describe('the session cookie', () => {
  test('is HttpOnly, SameSite=Lax, Path=/ and not Secure over http', async () => {
    const res = await signUpRaw(server)
    const cookie = res.headers['set-cookie']![0] as string
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43}; /)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Lax')
    expect(cookie).toContain('Path=/')
    expect(cookie).not.toContain('Secure')
    expect(cookie).not.toContain('Domain=')
  })

  test('is Secure with the __Host- prefix over https', async () => {
    const secure = await serverWith(server, { trustProxyHops: 1 })
    const res = await signUpRaw(secure, { 'X-Forwarded-Proto': 'https' })
    const cookie = res.headers['set-cookie']![0] as string
    expect(cookie).toMatch(/^__Host-sid=/)
    expect(cookie).toContain('Secure')
    expect(cookie).toContain('Path=/')
    const session = await secure.api
      .get('/api/_auth/session')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', cookie.split(';')[0]!)
      .expect(200)
    expect(session.body.user.email).toBe(res.body.user.email)
  })

  test('every response carrying a token says Cache-Control: no-store', async () => {
    const res = await signUpRaw(server)
    expect(res.headers['cache-control']).toBe('no-store')
  })
})

async function signUpRaw(target: TestServer, headers: Record<string, string> = {}) {
  const { api } = target
  const email = `cookie-${Math.random().toString(36).slice(2)}@example.test`
  await api
    .post('/api/auth/signup')
    .set(headers)
    .send({ name: 'C', email, password: 'a long enough passphrase' })
    .expect(202)
  const code = await readCode(api, email)
  return api.post('/api/auth/otp/verify').set(headers).send({ email, code, purpose: 'signup' }).expect(200)
}

describe('DELETE /api/_auth/session', () => {
  test('ends the session on the server: cookie, refresh family and access tokens', async () => {
    const { api } = server
    const account = await signUp(api)
    const res = await api
      .delete('/api/_auth/session')
      .set('Cookie', account.cookie)
      .set('Sec-Fetch-Site', 'same-origin')
      .expect(200)
    expect(res.body).toEqual({ loggedOut: true })
    expect(res.headers['set-cookie']![0]).toMatch(/^sid=; .*Max-Age=0/)
    expect((await api.get('/api/_auth/session').set('Cookie', account.cookie).expect(200)).body).toEqual({})
    const refused = await refresh(api, account.refreshToken).expect(401)
    expect(refused.body.error).toBe('refresh_invalid')
    const me = await api.get('/api/me').set(bearer(account.token)).expect(401)
    expect(me.body.error).toBe('session_revoked')
  })

  test('is idempotent without a session', async () => {
    await server.api.delete('/api/_auth/session').expect(200)
  })

  test.each([
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'Sec-Fetch-Site': 'same-site' }],
    ['a foreign Origin', { Origin: 'https://evil.example' }],
  ])('refuses a cross-site request (%s) and keeps the session', async (_label, headers) => {
    const { api } = server
    const account = await signUp(api)
    const res = await api.delete('/api/_auth/session').set('Cookie', account.cookie).set(headers).expect(403)
    expect(res.body.error).toBe('cross_site_request')
    expect((await api.get('/api/_auth/session').set('Cookie', account.cookie)).body.user.email).toBe(
      account.email,
    )
  })
})

describe('POST /api/refresh_token', () => {
  test('rotates: a new pair, and the new access token works', async () => {
    const { api } = server
    const account = await signUp(api)
    const res = await refresh(api, account.refreshToken).expect(200)
    expect(res.body.success).toBe(true)
    expect(res.body.refresh_token).not.toBe(account.refreshToken)
    expect(res.body.token).not.toBe(account.token)
    expect(res.headers['cache-control']).toBe('no-store')
    await api.get('/api/me').set(bearer(res.body.token)).expect(200)
  })

  test('refresh tokens carry at least 128 random bits', async () => {
    const account = await signUp(server.api)
    expect(Buffer.from(account.refreshToken, 'base64url').length).toBeGreaterThanOrEqual(16)
  })

  test('the parent of the live token within the grace window returns the same live pair', async () => {
    const { api } = server
    const account = await signUp(api)
    const first = await refresh(api, account.refreshToken).expect(200)
    await advanceClock(api, 9_000)
    const again = await refresh(api, account.refreshToken).expect(200)
    expect(again.body).toEqual(first.body)
    await api.get('/api/me').set(bearer(first.body.token)).expect(200)
  })

  test('concurrent refreshes with one token all succeed with the same pair', async () => {
    const { api } = server
    const account = await signUp(api)
    const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(api, account.refreshToken)))
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200])
    expect(new Set(answers.map((answer) => answer.body.refresh_token)).size).toBe(1)
  })

  test('reuse after the grace window revokes the whole family and its access tokens', async () => {
    const { api } = server
    const account = await signUp(api)
    const live = await refresh(api, account.refreshToken).expect(200)
    await waitPast(api, 10_001)
    const reuse = await refresh(api, account.refreshToken).expect(401)
    expect(reuse.body).toMatchObject({ success: false, error: 'refresh_reused' })
    const child = await refresh(api, live.body.refresh_token).expect(401)
    expect(child.body.error).toBe('refresh_invalid')
    expect((await api.get('/api/me').set(bearer(live.body.token)).expect(401)).body.error).toBe(
      'session_revoked',
    )
  })

  test('reuse of a grandparent, even within the window, revokes the family', async () => {
    const { api } = server
    const account = await signUp(api)
    const second = await refresh(api, account.refreshToken).expect(200)
    const third = await refresh(api, second.body.refresh_token).expect(200)
    const reuse = await refresh(api, account.refreshToken).expect(401)
    expect(reuse.body.error).toBe('refresh_reused')
    await refresh(api, third.body.refresh_token).expect(401)
  })

  test('rotation never extends the absolute lifetime', async () => {
    const short = await createTestServer({ refreshTokenTtlMs: 60_000 })
    const account = await signUp(short.api)
    let refreshToken = account.refreshToken
    for (let step = 0; step < 3; step += 1) {
      await advanceClock(short.api, 15_000)
      const res = await refresh(short.api, refreshToken).expect(200)
      refreshToken = res.body.refresh_token
    }
    await advanceClock(short.api, 15_001)
    const res = await refresh(short.api, refreshToken).expect(401)
    expect(res.body.error).toBe('refresh_expired')
  })

  test('an unknown refresh token is refresh_invalid', async () => {
    const res = await refresh(server.api, 'not-a-token').expect(401)
    expect(res.body).toEqual({ success: false, error: 'refresh_invalid', message: expect.any(String) })
  })

  test('refuses a malformed request without touching the family', async () => {
    const { api } = server
    const account = await signUp(api)
    expect((await api.post('/api/refresh_token').send({}).expect(400)).body.error).toBe('validation_failed')
    await api.post('/api/refresh_token').set('Content-Type', 'text/plain').send('x').expect(415)
    await api
      .post('/api/refresh_token')
      .set('Content-Type', 'application/json')
      .send('x'.repeat(17_000))
      .expect(413)
    await refresh(api, account.refreshToken).expect(200)
  })
})
