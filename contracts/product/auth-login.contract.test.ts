// The sign-in call: credentials, lock-out, rate limit, no enumeration.
import { describe, expect, test } from 'vitest'
import {
  advanceClock,
  limitedServer,
  login,
  PASSWORD,
  requireControl,
  resetPassword,
  sessionCookieOf,
  signUp,
  uniqueEmail,
  useTestServer,
} from '#contracts/fixtures.ts'
import { MANY_CALLS_TIMEOUT_MS } from '#contracts/support/test-server.ts'

const server = useTestServer()
/** The in-process server's sign-in limit, quick to reach; a target is held to its own. */
const SMALL_LIMIT = { max: 3, windowMs: 60_000 }

describe('POST /api/auth/login', () => {
  test('signs in a verified account with a session cookie and a token pair', async () => {
    // An account of its own rather than a seeded one, which a production target does not have.
    const account = await signUp(server.api)
    const res = await login(server, account.email, account.password).expect(200)
    expect(res.body.user).toMatchObject({ email: account.email, name: account.user.name })
    expect(res.body.token.split('.')).toHaveLength(3)
    expect(res.body.refresh_token).toEqual(expect.any(String))
    expect(sessionCookieOf(res.headers['set-cookie'])).toMatch(/^(__Host-)?sid=./)
    expect(res.headers['cache-control']).toBe('no-store')
  })

  test('answers an unknown address exactly like a wrong password', async () => {
    const account = await signUp(server.api)
    const unknown = await login(server, uniqueEmail('ghost'), 'whatever password').expect(401)
    const wrong = await login(server, account.email, 'not the password').expect(401)
    expect(unknown.body).toEqual(wrong.body)
    expect(unknown.body.error).toBe('invalid_credentials')
  })

  test('answers 403 unverified only to the right password of an unverified account', async () => {
    // A sign-up whose code is never entered, so that a target without the seeded accounts has one too.
    const email = uniqueEmail('unverified')
    await server.api
      .post('/api/auth/signup')
      .send({ name: 'Never Verified', email, password: PASSWORD })
      .expect(202)
    expect((await login(server, email, PASSWORD).expect(403)).body.error).toBe('unverified')
    expect((await login(server, email, 'a wrong password').expect(401)).body.error).toBe(
      'invalid_credentials',
    )
  })

  // Every request here comes from one client address; other addresses: contracts/attacks/attack-lockout.contract.test.ts.
  test('locks the account for that client address for 15 minutes after 10 consecutive failures, with the same answer', async () => {
    const account = await signUp(server.api)
    for (let attempt = 0; attempt < 10; attempt += 1)
      await login(server, account.email, 'wrong password!').expect(401)
    const locked = await login(server, account.email, account.password).expect(401)
    expect(locked.body).toEqual((await login(server, account.email, 'wrong password!').expect(401)).body)
    await advanceClock(server.api, 15 * 60_000 + 1)
    await login(server, account.email, account.password).expect(200)
  })

  test("a success resets that address's failure count", async () => {
    const account = await signUp(server.api)
    for (let attempt = 0; attempt < 9; attempt += 1)
      await login(server, account.email, 'wrong password!').expect(401)
    await login(server, account.email, account.password).expect(200)
    for (let attempt = 0; attempt < 9; attempt += 1)
      await login(server, account.email, 'wrong password!').expect(401)
    await login(server, account.email, account.password).expect(200)
  })

  test('password recovery still works while the address is locked out, and the new password lifts the lock', async () => {
    const { api } = server
    const account = await signUp(api)
    for (let attempt = 0; attempt < 10; attempt += 1)
      await login(server, account.email, 'wrong password!').expect(401)
    await resetPassword(api, account.email, 'a brand new passphrase')
    await login(server, account.email, 'a brand new passphrase').expect(200)
  })

  test(
    'rate-limits one client address beyond its limit, even the right password, with retry_after',
    async () => {
      const { server: limited, limit } = await limitedServer('loginRateLimit', SMALL_LIMIT, server)
      const account = await signUp(limited.api)
      for (let attempt = 0; attempt < limit.max; attempt += 1)
        await login(limited, uniqueEmail('nobody'), 'wrong password').expect(401)
      const res = await login(limited, account.email, account.password).expect(429)
      expect(res.body).toEqual({
        error: 'rate_limited',
        message: expect.any(String),
        retry_after: expect.any(Number),
      })
      expect(res.headers['retry-after']).toBe(String(res.body.retry_after))
      expect(res.body.retry_after).toBeGreaterThan(0)
      expect(res.body.retry_after).toBeLessThanOrEqual(limit.windowMs / 1000)
    },
    MANY_CALLS_TIMEOUT_MS,
  )

  test(
    'the rate limit lifts once its window has passed',
    async () => {
      requireControl(server.api)
      const { server: limited, limit } = await limitedServer('loginRateLimit', SMALL_LIMIT, server)
      const account = await signUp(limited.api)
      for (let attempt = 0; attempt < limit.max; attempt += 1)
        await login(limited, uniqueEmail('nobody'), 'wrong password').expect(401)
      await login(limited, account.email, account.password).expect(429)
      await advanceClock(limited.api, limit.windowMs)
      await login(limited, account.email, account.password).expect(200)
    },
    MANY_CALLS_TIMEOUT_MS,
  )

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
