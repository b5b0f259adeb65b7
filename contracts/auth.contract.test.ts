// The `auth` tag: sign-in with lock-out and rate limit, sign-up without enumeration, one-time codes,
// recovery, password change and the external sign-in.
import { beforeEach, describe, expect, test } from 'vitest'
import {
  advanceClock,
  bearer,
  createTestServer,
  PASSWORD,
  readCode,
  signIn,
  signUp,
  uniqueEmail,
  type TestServer,
} from '#contracts/fixtures.ts'

let server: TestServer
beforeEach(async () => {
  server = await createTestServer()
})

const login = (s: TestServer, email: string, password: string) =>
  s.api.post('/api/auth/login').send({ email, password })

describe('POST /api/auth/login', () => {
  test('signs in a seeded account with a session cookie and a token pair', async () => {
    const res = await login(server, 'ada@example.com', 'analytical-engine-1843').expect(200)
    expect(res.body.user).toMatchObject({ email: 'ada@example.com', name: 'Ada Lovelace' })
    expect(res.body.token.split('.')).toHaveLength(3)
    expect(res.headers['cache-control']).toBe('no-store')
  })

  test('answers an unknown address exactly like a wrong password', async () => {
    const unknown = await login(server, uniqueEmail('ghost'), 'whatever password').expect(401)
    const wrong = await login(server, 'ada@example.com', 'not the password').expect(401)
    expect(unknown.body).toEqual(wrong.body)
    expect(unknown.body.error).toBe('invalid_credentials')
  })

  test('answers 403 unverified only to the right password of an unverified account', async () => {
    expect((await login(server, 'alan@example.com', 'imitation-game-1950').expect(403)).body.error).toBe(
      'unverified',
    )
    expect((await login(server, 'alan@example.com', 'a wrong password').expect(401)).body.error).toBe(
      'invalid_credentials',
    )
  })

  test('locks the account for 15 minutes after 10 consecutive failures, with the same answer', async () => {
    const account = await signUp(server.api)
    for (let attempt = 0; attempt < 10; attempt += 1)
      await login(server, account.email, 'wrong password!').expect(401)
    const locked = await login(server, account.email, account.password).expect(401)
    expect(locked.body.error).toBe('invalid_credentials')
    await advanceClock(server.api, 15 * 60_000 + 1)
    await login(server, account.email, account.password).expect(200)
  })

  test('a success resets the failure count', async () => {
    const account = await signUp(server.api)
    for (let attempt = 0; attempt < 9; attempt += 1)
      await login(server, account.email, 'wrong password!').expect(401)
    await login(server, account.email, account.password).expect(200)
    for (let attempt = 0; attempt < 9; attempt += 1)
      await login(server, account.email, 'wrong password!').expect(401)
    await login(server, account.email, account.password).expect(200)
  })

  test('password recovery still works while the account is locked', async () => {
    const { api } = server
    const account = await signUp(api)
    for (let attempt = 0; attempt < 10; attempt += 1)
      await login(server, account.email, 'wrong password!').expect(401)
    await api.post('/api/auth/forgot').send({ email: account.email }).expect(202)
    const code = await readCode(api, account.email, 'reset')
    const verified = await api
      .post('/api/auth/otp/verify')
      .send({ email: account.email, code, purpose: 'reset' })
      .expect(200)
    await api
      .post('/api/auth/update_password')
      .send({ reset_token: verified.body.reset_token, password: 'a brand new passphrase' })
      .expect(200)
    await login(server, account.email, 'a brand new passphrase').expect(200)
  })

  test('rate-limits one client address beyond the configured rate with retry_after', async () => {
    const limited = await createTestServer({ loginRateLimit: { max: 3, windowMs: 60_000 } })
    for (let attempt = 0; attempt < 3; attempt += 1)
      await login(limited, 'ada@example.com', 'wrong password').expect(401)
    const res = await login(limited, 'ada@example.com', 'analytical-engine-1843').expect(429)
    expect(res.body).toEqual({
      error: 'rate_limited',
      message: expect.any(String),
      retry_after: expect.any(Number),
    })
    expect(res.headers['retry-after']).toBe(String(res.body.retry_after))
    await advanceClock(limited.api, 60_000)
    await login(limited, 'ada@example.com', 'analytical-engine-1843').expect(200)
  })

  test('the default rate allows at least 100 sign-in attempts per 15 minutes', async () => {
    for (let attempt = 0; attempt < 100; attempt += 1)
      await login(server, 'nobody@example.test', 'wrong password').expect(401)
  })

  test('refuses malformed requests', async () => {
    const { api } = server
    const res = await api.post('/api/auth/login').send({ email: 'not-an-email', password: 'x' }).expect(400)
    expect(res.body).toMatchObject({ error: 'validation_failed', fields: { email: expect.any(String) } })
    await api.post('/api/auth/login').set('Content-Type', 'application/json').send('{"email":').expect(400)
    await api.post('/api/auth/login').set('Content-Type', 'text/plain').send('hello').expect(415)
    await api
      .post('/api/auth/login')
      .send({ email: 'a@b.co', password: 'p'.repeat(20_000) })
      .expect(413)
  })
})

describe('POST /api/auth/signup', () => {
  test('mails a 6-digit code and answers 202', async () => {
    const { api } = server
    const email = uniqueEmail()
    const res = await api
      .post('/api/auth/signup')
      .send({ name: 'New', email, password: PASSWORD })
      .expect(202)
    expect(res.body).toEqual({ accepted: true, resend_after: 30 })
    expect(await readCode(api, email)).toMatch(/^\d{6}$/)
  })

  test('gives a taken address the same answer and an "account exists" mail instead of a code', async () => {
    const { api } = server
    const fresh = await api
      .post('/api/auth/signup')
      .send({ name: 'X', email: uniqueEmail(), password: PASSWORD })
      .expect(202)
    const taken = await api
      .post('/api/auth/signup')
      .send({ name: 'X', email: 'ada@example.com', password: PASSWORD })
      .expect(202)
    expect(taken.body).toEqual(fresh.body)
    const mails = (await api.get('/__mock/mailbox?email=ada@example.com')).body.messages
    expect(mails).toEqual([expect.objectContaining({ purpose: 'account_exists' })])
    expect(mails[0].code).toBeUndefined()
    await login(server, 'ada@example.com', 'analytical-engine-1843').expect(200)
  })

  test.each([
    ['shorter than 8 characters', 'short', /at least 8/],
    ['longer than 128 characters', 'x'.repeat(129), /at most 128/],
    ['on the common-password list', 'password123', /too common/],
    ['on the common-password list (case folded)', 'Qwertyuiop', /too common/],
  ])('refuses a password %s with the reason', async (_label, password, reason) => {
    const res = await server.api
      .post('/api/auth/signup')
      .send({ name: 'X', email: uniqueEmail(), password })
      .expect(400)
    expect(res.body.error).toBe('validation_failed')
    expect(res.body.fields.password).toMatch(reason)
  })

  test('accepts any 8 characters without composition rules', async () => {
    await server.api
      .post('/api/auth/signup')
      .send({ name: 'X', email: uniqueEmail(), password: 'zebra crossing' })
      .expect(202)
  })

  test('refuses unknown fields and wrong media types', async () => {
    const { api } = server
    const res = await api
      .post('/api/auth/signup')
      .send({ name: 'X', email: uniqueEmail(), password: PASSWORD, admin: true })
      .expect(400)
    expect(res.body.fields).toEqual({ admin: 'This field is not allowed.' })
    await api.post('/api/auth/signup').set('Content-Type', 'application/xml').send('<x/>').expect(415)
    await api
      .post('/api/auth/signup')
      .send({ name: 'n'.repeat(17_000), email: 'a@b.co', password: PASSWORD })
      .expect(413)
  })

  test('rate-limits one client address', async () => {
    const limited = await createTestServer({ mailRateLimit: { max: 1, windowMs: 60_000 } })
    await limited.api
      .post('/api/auth/signup')
      .send({ name: 'X', email: uniqueEmail(), password: PASSWORD })
      .expect(202)
    const res = await limited.api
      .post('/api/auth/signup')
      .send({ name: 'X', email: uniqueEmail(), password: PASSWORD })
      .expect(429)
    expect(res.body.error).toBe('rate_limited')
  })

  test('the newest sign-up of an unverified address replaces the earlier details', async () => {
    const { api } = server
    const email = uniqueEmail()
    await api
      .post('/api/auth/signup')
      .send({ name: 'Squatter', email, password: 'squatters passphrase' })
      .expect(202)
    await advanceClock(api, 30_000)
    await api
      .post('/api/auth/signup')
      .send({ name: 'Owner', email, password: 'owners own passphrase' })
      .expect(202)
    const code = await readCode(api, email)
    const res = await api.post('/api/auth/otp/verify').send({ email, code, purpose: 'signup' }).expect(200)
    expect(res.body.user.name).toBe('Owner')
    await login(server, email, 'squatters passphrase').expect(401)
    await login(server, email, 'owners own passphrase').expect(200)
  })
})

describe('one-time codes', () => {
  const send = (s: TestServer, email: string, purpose: string) =>
    s.api.post('/api/auth/otp/send').send({ email, purpose })
  const verify = (s: TestServer, email: string, code: string, purpose: string) =>
    s.api.post('/api/auth/otp/verify').send({ email, code, purpose })

  test('a login code signs in, once', async () => {
    await send(server, 'grace@example.com', 'login').expect(202)
    const code = await readCode(server.api, 'grace@example.com', 'login')
    const res = await verify(server, 'grace@example.com', code, 'login').expect(200)
    expect(res.body.user.email).toBe('grace@example.com')
    expect(res.headers['set-cookie']![0]).toMatch(/^sid=/)
    expect((await verify(server, 'grace@example.com', code, 'login').expect(400)).body.error).toBe(
      'invalid_code',
    )
  })

  test('answers 202 for an unknown address and mails nothing', async () => {
    const email = uniqueEmail('nobody')
    const res = await send(server, email, 'login').expect(202)
    expect(res.body).toEqual({ accepted: true, resend_after: 30 })
    expect((await server.api.get(`/__mock/mailbox?email=${email}`)).body.messages).toEqual([])
  })

  test('an unknown address counts attempts like a known one (no enumeration)', async () => {
    await send(server, 'grace@example.com', 'login').expect(202)
    const known = await verify(server, 'grace@example.com', '000000', 'login').expect(400)
    const unknown = await verify(server, uniqueEmail('nobody'), '000000', 'login').expect(400)
    expect(unknown.body).toEqual(known.body)
  })

  test('a second send within 30 s is refused with the wait; after it, the new code replaces the old', async () => {
    const { api } = server
    await send(server, 'grace@example.com', 'login').expect(202)
    const first = await readCode(api, 'grace@example.com', 'login')
    const refused = await send(server, 'grace@example.com', 'login').expect(429)
    expect(refused.body).toMatchObject({ error: 'rate_limited', retry_after: 30 })
    await advanceClock(api, 30_000)
    await send(server, 'grace@example.com', 'login').expect(202)
    const second = await readCode(api, 'grace@example.com', 'login')
    if (first !== second) await verify(server, 'grace@example.com', first, 'login').expect(400)
    await verify(server, 'grace@example.com', second, 'login').expect(200)
  })

  test('the fifth wrong attempt burns the code', async () => {
    const { api } = server
    await send(server, 'grace@example.com', 'login').expect(202)
    const code = await readCode(api, 'grace@example.com', 'login')
    const wrong = code === '000000' ? '111111' : '000000'
    const left: number[] = []
    for (let attempt = 0; attempt < 4; attempt += 1) {
      left.push((await verify(server, 'grace@example.com', wrong, 'login').expect(400)).body.attempts_left)
    }
    expect(left).toEqual([4, 3, 2, 1])
    expect((await verify(server, 'grace@example.com', wrong, 'login').expect(429)).body.error).toBe(
      'too_many_attempts',
    )
    expect((await verify(server, 'grace@example.com', code, 'login').expect(429)).body.error).toBe(
      'too_many_attempts',
    )
  })

  test('a code is bound to its purpose', async () => {
    await send(server, 'grace@example.com', 'reset').expect(202)
    const code = await readCode(server.api, 'grace@example.com', 'reset')
    await verify(server, 'grace@example.com', code, 'login').expect(400)
    await verify(server, 'grace@example.com', code, 'reset').expect(200)
  })

  test('a code expires after 10 minutes', async () => {
    await send(server, 'grace@example.com', 'login').expect(202)
    const code = await readCode(server.api, 'grace@example.com', 'login')
    await advanceClock(server.api, 10 * 60_000)
    await verify(server, 'grace@example.com', code, 'login').expect(400)
  })

  test('concurrent submissions of the right code: exactly one succeeds', async () => {
    await send(server, 'grace@example.com', 'login').expect(202)
    const code = await readCode(server.api, 'grace@example.com', 'login')
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => verify(server, 'grace@example.com', code, 'login')),
    )
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
  })

  test('codes are stored hashed: the store holds no code in clear', async () => {
    await send(server, 'grace@example.com', 'login').expect(202)
    const code = await readCode(server.api, 'grace@example.com', 'login')
    const stored = JSON.stringify(server.app.core.ops.domain.store.codes.all())
    expect(stored).not.toContain(`"${code}"`)
  })

  test('refuses malformed requests', async () => {
    const { api } = server
    expect(
      (await verify(server, 'grace@example.com', '12345', 'login').expect(400)).body.fields.code,
    ).toBeDefined()
    await send(server, 'grace@example.com', 'admin').expect(400)
    await api.post('/api/auth/otp/send').set('Content-Type', 'text/plain').send('x').expect(415)
    await api.post('/api/auth/otp/verify').set('Content-Type', 'text/plain').send('x').expect(415)
    await api
      .post('/api/auth/otp/send')
      .send({ email: 'a@b.co', purpose: 'x'.repeat(17_000) })
      .expect(413)
    await api
      .post('/api/auth/otp/verify')
      .send({ email: 'a@b.co', code: '1'.repeat(17_000), purpose: 'login' })
      .expect(413)
  })
})

describe('POST /api/auth/forgot', () => {
  test('answers 202 whether or not the account exists, mailing only a real one', async () => {
    const { api } = server
    const ghost = uniqueEmail('ghost')
    const real = await api.post('/api/auth/forgot').send({ email: 'grace@example.com' }).expect(202)
    const fake = await api.post('/api/auth/forgot').send({ email: ghost }).expect(202)
    expect(fake.body).toEqual(real.body)
    expect(await readCode(api, 'grace@example.com', 'reset')).toMatch(/^\d{6}$/)
    expect((await api.get(`/__mock/mailbox?email=${ghost}`)).body.messages).toEqual([])
  })

  test('refuses malformed requests and rate-limits one address', async () => {
    const { api } = server
    await api.post('/api/auth/forgot').send({ email: 'nope' }).expect(400)
    await api.post('/api/auth/forgot').set('Content-Type', 'text/plain').send('x').expect(415)
    await api
      .post('/api/auth/forgot')
      .send({ email: 'x'.repeat(17_000) })
      .expect(413)
    const limited = await createTestServer({ mailRateLimit: { max: 1, windowMs: 60_000 } })
    await limited.api.post('/api/auth/forgot').send({ email: 'grace@example.com' }).expect(202)
    expect(
      (await limited.api.post('/api/auth/forgot').send({ email: 'grace@example.com' }).expect(429)).body
        .error,
    ).toBe('rate_limited')
  })
})

describe('POST /api/auth/update_password', () => {
  async function resetToken(email: string): Promise<string> {
    await server.api.post('/api/auth/forgot').send({ email }).expect(202)
    const code = await readCode(server.api, email, 'reset')
    return (await server.api.post('/api/auth/otp/verify').send({ email, code, purpose: 'reset' }).expect(200))
      .body.reset_token
  }

  test('with a reset token: sets the password, ends every session, and the token works once', async () => {
    const { api } = server
    const account = await signUp(api)
    const token = await resetToken(account.email)
    await api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: 'another fine passphrase' })
      .expect(200)
    expect((await api.get('/api/me').set(bearer(account.token)).expect(401)).body.error).toBe(
      'session_revoked',
    )
    await api.post('/api/refresh_token').send({ refresh_token: account.refreshToken }).expect(401)
    await login(server, account.email, account.password).expect(401)
    await login(server, account.email, 'another fine passphrase').expect(200)
    const again = await api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: 'yet another passphrase' })
      .expect(400)
    expect(again.body.error).toBe('reset_token_invalid')
  })

  test('a refused new password does not use up the reset token', async () => {
    const token = await resetToken('grace@example.com')
    await server.api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: 'password1' })
      .expect(400)
    await server.api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: 'a fresh passphrase' })
      .expect(200)
  })

  test('signed in: checks the current password and ends the other sessions only', async () => {
    const { api } = server
    const account = await signUp(api)
    const other = await signIn(api, account.email, account.password)
    const wrong = await api
      .post('/api/auth/update_password')
      .set(bearer(account.token))
      .send({ current_password: 'not my password', password: 'a changed passphrase' })
      .expect(400)
    expect(wrong.body.error).toBe('invalid_credentials')
    await api
      .post('/api/auth/update_password')
      .set(bearer(account.token))
      .send({ current_password: account.password, password: 'a changed passphrase' })
      .expect(200)
    await api.get('/api/me').set(bearer(account.token)).expect(200)
    expect((await api.get('/api/me').set(bearer(other.token)).expect(401)).body.error).toBe('session_revoked')
  })

  test('signed-in form without a token, or with a bad one, is 401', async () => {
    const body = { current_password: 'whatever it is', password: 'a changed passphrase' }
    expect(
      (await server.api.post('/api/auth/update_password').send(body).expect(401)).body.error,
    ).toBeUndefined()
    const res = await server.api
      .post('/api/auth/update_password')
      .set(bearer('garbage'))
      .send(body)
      .expect(401)
    expect(res.body.error).toBe('token_invalid')
  })

  test('refuses malformed requests and rate-limits', async () => {
    const { api } = server
    const res = await api
      .post('/api/auth/update_password')
      .send({ reset_token: 'x', password: 'short' })
      .expect(400)
    expect(res.body.fields.password).toMatch(/at least 8/)
    await api.post('/api/auth/update_password').set('Content-Type', 'text/plain').send('x').expect(415)
    await api
      .post('/api/auth/update_password')
      .send({ reset_token: 'x'.repeat(17_000), password: PASSWORD })
      .expect(413)
    const limited = await createTestServer({ loginRateLimit: { max: 1, windowMs: 60_000 } })
    await limited.api
      .post('/api/auth/update_password')
      .send({ reset_token: 'bad', password: PASSWORD })
      .expect(400)
    await limited.api
      .post('/api/auth/update_password')
      .send({ reset_token: 'bad', password: PASSWORD })
      .expect(429)
  })
})

describe('external sign-in', () => {
  const STATE = 'state-0123456789abcdef'

  async function idpCode(email: string, state = STATE): Promise<string> {
    const start = await server.api
      .get(`/api/auth/external/authorize?state=${state}&redirect_uri=/callback`)
      .expect(302)
    const page = new URL(start.headers.location!, 'http://x')
    expect(page.pathname).toBe('/idp/authorize')
    await server.api.get(page.pathname + page.search).expect(200)
    const back = await server.api
      .post('/idp/authorize')
      .type('form')
      .send({ email, name: 'Sso User', state, redirect_uri: '/callback' })
      .expect(302)
    const callback = new URL(back.headers.location!, 'http://x')
    expect(callback.pathname).toBe('/callback')
    expect(callback.searchParams.get('state')).toBe(state)
    return callback.searchParams.get('code')!
  }

  test('the code and state are exchanged for a session, once', async () => {
    const email = uniqueEmail('sso')
    const code = await idpCode(email)
    const res = await server.api.post('/api/auth/callback').send({ code, state: STATE }).expect(200)
    expect(res.body.user).toMatchObject({ email, name: 'Sso User' })
    const again = await server.api.post('/api/auth/callback').send({ code, state: STATE }).expect(400)
    expect(again.body.error).toBe('invalid_callback')
  })

  test('a forged state is refused', async () => {
    const code = await idpCode(uniqueEmail('sso'))
    await server.api.post('/api/auth/callback').send({ code, state: 'forged-state-000000' }).expect(400)
  })

  test('redirects only to paths of this site', async () => {
    const { api } = server
    const res = await api
      .get(`/api/auth/external/authorize?state=${STATE}&redirect_uri=https://evil.example/cb`)
      .expect(400)
    expect(res.body.fields.redirect_uri).toBeDefined()
    await api.get(`/api/auth/external/authorize?state=${STATE}&redirect_uri=//evil.example`).expect(400)
    await api.get('/api/auth/external/authorize').expect(400)
    await api.get(`/idp/authorize?state=${STATE}&redirect_uri=https://evil.example`).expect(400)
    await api
      .post('/idp/authorize')
      .type('form')
      .send({ email: 'a@b.co', state: STATE, redirect_uri: '//evil' })
      .expect(400)
  })

  test('refuses malformed requests', async () => {
    const { api } = server
    await api.post('/api/auth/callback').send({ code: 'x' }).expect(400)
    await api.post('/api/auth/callback').set('Content-Type', 'text/plain').send('x').expect(415)
    await api
      .post('/api/auth/callback')
      .send({ code: 'x'.repeat(17_000), state: 'y' })
      .expect(413)
    await api
      .post('/idp/authorize')
      .send({ email: 'a@b.co', state: STATE, redirect_uri: '/callback' })
      .expect(415)
    await api
      .post('/idp/authorize')
      .type('form')
      .send({ email: 'a@b.co', state: 'x'.repeat(17_000), redirect_uri: '/c' })
      .expect(413)
  })
})
