// Sign-up without account enumeration, and the password policy.
import { describe, expect, test } from 'vitest'
import {
  advanceClock,
  limitedServer,
  login,
  PASSWORD,
  readCode,
  requireCodes,
  signUp,
  uniqueEmail,
  useTestServer,
} from '#contracts/fixtures.ts'
import { MANY_CALLS_TIMEOUT_MS } from '#contracts/support/test-server.ts'
import { EXPIRY_TEST_TIMEOUT_MS, waitPast } from '#contracts/support/expiry.ts'
import { CODE_COOLDOWN_MS } from '#mock-server/shared/constants.ts'

const server = useTestServer()

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

  test(
    'gives a taken address the same answer as a new one, and its owner keeps the password',
    async () => {
      const { api } = server
      const owner = await signUp(api, 'owner')
      // Past the cooldown of the owner's own sign-up code, as a new address has none running.
      await waitPast(api, 30_000)
      const fresh = await api
        .post('/api/auth/signup')
        .send({ name: 'X', email: uniqueEmail(), password: PASSWORD })
        .expect(202)
      const taken = await api
        .post('/api/auth/signup')
        .send({ name: 'X', email: owner.email, password: 'an intruder passphrase' })
        .expect(202)
      expect(taken.body).toEqual(fresh.body)
      await login(server, owner.email, owner.password).expect(200)
      // The intruder's password is answered as any sign-up's before its code (docs/security/codes.md), never signed in.
      expect((await login(server, owner.email, 'an intruder passphrase').expect(403)).body.error).toBe(
        'unverified',
      )
    },
    EXPIRY_TEST_TIMEOUT_MS,
  )

  test('mails a taken address an "account exists" notice instead of a code', async () => {
    const { api } = server
    await api
      .post('/api/auth/signup')
      .send({ name: 'X', email: 'ada@example.com', password: PASSWORD })
      .expect(202)
    const mails = await server.mock.mailbox('ada@example.com')
    expect(mails).toEqual([expect.objectContaining({ purpose: 'account_exists' })])
    expect(mails[0]!.code).toBeUndefined()
  })

  test.each([
    // The schema states the length: a password outside it is not a well-formed request (validation_failed).
    // The common-password list is a rule no schema states: a well-formed request it refuses is password_rejected.
    ['shorter than 8 characters', 'short', /at least 8/, 'validation_failed'],
    ['longer than 128 characters', 'x'.repeat(129), /at most 128/, 'validation_failed'],
    ['on the common-password list', 'password123', /too common/, 'password_rejected'],
    ['on the common-password list (case folded)', 'Qwertyuiop', /too common/, 'password_rejected'],
  ])('refuses a password %s with the reason', async (_label, password, reason, code) => {
    const res = await server.api
      .post('/api/auth/signup')
      .send({ name: 'X', email: uniqueEmail(), password })
      .expect(400)
    expect(res.body.error).toBe(code)
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

  test(
    'rate-limits one client address beyond its limit of mails, with retry_after',
    async () => {
      const { server: limited, limit } = await limitedServer(
        'mailRateLimit',
        { max: 1, windowMs: 60_000 },
        server,
      )
      for (let call = 0; call < limit.max; call += 1)
        await limited.api
          .post('/api/auth/signup')
          .send({ name: 'X', email: uniqueEmail(), password: PASSWORD })
          .expect(202)
      const res = await limited.api
        .post('/api/auth/signup')
        .send({ name: 'X', email: uniqueEmail(), password: PASSWORD })
        .expect(429)
      expect(res.body.error).toBe('rate_limited')
      expect(res.headers['retry-after']).toBe(String(res.body.retry_after))
    },
    MANY_CALLS_TIMEOUT_MS,
  )

  test(
    'a second sign-up while the first code is alive: the newest code signs in, and neither password survives',
    async () => {
      const { api } = server
      const email = uniqueEmail()
      await api
        .post('/api/auth/signup')
        .send({ name: 'First', email, password: 'first passphrase' })
        .expect(202)
      const first = await readCode(api, email)
      // Past the cooldown, far within the code's 10 minutes: waited out in real time where the clock cannot move.
      await waitPast(api, CODE_COOLDOWN_MS)
      await api
        .post('/api/auth/signup')
        .send({ name: 'Second', email, password: 'second passphrase' })
        .expect(202)
      const second = await readCode(api, email)
      if (first !== second)
        await api.post('/api/auth/otp/verify').send({ email, code: first, purpose: 'signup' }).expect(400)
      const res = await api
        .post('/api/auth/otp/verify')
        .send({ email, code: second, purpose: 'signup' })
        .expect(200)
      expect(res.body.user.name).toBe(email.split('@')[0])
      await login(server, email, 'first passphrase').expect(401)
      await login(server, email, 'second passphrase').expect(401)
    },
    EXPIRY_TEST_TIMEOUT_MS,
  )

  test('a sign-up once the earlier code has expired takes the unverified account over', async () => {
    const { api } = server
    const email = uniqueEmail()
    await api
      .post('/api/auth/signup')
      .send({ name: 'Early', email, password: 'early passphrase' })
      .expect(202)
    await advanceClock(api, 10 * 60_000)
    await api
      .post('/api/auth/signup')
      .send({ name: 'Owner', email, password: 'owners own passphrase' })
      .expect(202)
    const code = await readCode(api, email)
    const res = await api.post('/api/auth/otp/verify').send({ email, code, purpose: 'signup' }).expect(200)
    expect(res.body.user.name).toBe('Owner')
    await login(server, email, 'early passphrase').expect(401)
    await login(server, email, 'owners own passphrase').expect(200)
  })

  test(
    'a code asked for an address without an account does not block its sign-up: the code resent after the cooldown signs the owner in',
    async () => {
      const { api } = server
      const email = uniqueEmail()
      await api.post('/api/auth/otp/send').send({ email, purpose: 'signup' }).expect(202)
      const res = await api
        .post('/api/auth/signup')
        .send({ name: 'Owner', email, password: 'owners own passphrase' })
        .expect(202)
      // The unmailed code's cooldown still runs: the answer must not tell an address without an account apart.
      expect(res.body.resend_after).toBeGreaterThan(0)
      // Before the cooldown's wait, which against a target without /__mock is a real one of 30 s.
      requireCodes(api)
      await waitPast(api, res.body.resend_after * 1000)
      await api.post('/api/auth/otp/send').send({ email, purpose: 'signup' }).expect(202)
      const code = await readCode(api, email)
      const verified = await api
        .post('/api/auth/otp/verify')
        .send({ email, code, purpose: 'signup' })
        .expect(200)
      expect(verified.body.user.name).toBe('Owner')
      await login(server, email, 'owners own passphrase').expect(200)
    },
    EXPIRY_TEST_TIMEOUT_MS,
  )
})
