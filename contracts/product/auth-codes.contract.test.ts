// One-time codes: single use, purpose-bound, 10 minutes, 5 attempts, 30 s cooldown, stored hashed.
import { describe, expect, test } from 'vitest'
import {
  advanceClock,
  readCode,
  signUp,
  type TestServer,
  uniqueEmail,
  useTestServer,
} from '#contracts/fixtures.ts'
import { EXPIRY_TEST_TIMEOUT_MS, waitPast } from '#contracts/support/expiry.ts'

const server = useTestServer()
/** A verified account of the check's own, so that a target without the seeded accounts runs it too. */
const verifiedEmail = async () => (await signUp(server.api, 'codes')).email

describe('one-time codes', () => {
  const send = (s: TestServer, email: string, purpose: string) =>
    s.api.post('/api/auth/otp/send').send({ email, purpose })
  const verify = (s: TestServer, email: string, code: string, purpose: string) =>
    s.api.post('/api/auth/otp/verify').send({ email, code, purpose })

  test('a login code signs in, once', async () => {
    const email = await verifiedEmail()
    await send(server, email, 'login').expect(202)
    const code = await readCode(server.api, email, 'login')
    const res = await verify(server, email, code, 'login').expect(200)
    expect(res.body.user.email).toBe(email)
    expect(res.headers['set-cookie']![0]).toMatch(/^sid=/)
    expect((await verify(server, email, code, 'login').expect(400)).body.error).toBe('invalid_code')
  })

  test('answers 202 for an unknown address and mails nothing', async () => {
    const email = uniqueEmail('nobody')
    const res = await send(server, email, 'login').expect(202)
    expect(res.body).toEqual({ accepted: true, resend_after: 30 })
    expect(await server.mock.mailbox(email)).toEqual([])
  })

  test('an unknown address counts attempts like a known one (no enumeration)', async () => {
    const email = await verifiedEmail()
    await send(server, email, 'login').expect(202)
    const known = await verify(server, email, '000000', 'login').expect(400)
    const unknown = await verify(server, uniqueEmail('nobody'), '000000', 'login').expect(400)
    expect(unknown.body).toEqual(known.body)
  })

  test(
    'a second send within 30 s is refused with the wait; after it, the new code replaces the old',
    async () => {
      const email = await verifiedEmail()
      const { api } = server
      await send(server, email, 'login').expect(202)
      const first = await readCode(api, email, 'login')
      const refused = await send(server, email, 'login').expect(429)
      expect(refused.body).toMatchObject({ error: 'rate_limited', retry_after: 30 })
      await waitPast(api, 30_000)
      await send(server, email, 'login').expect(202)
      const second = await readCode(api, email, 'login')
      if (first !== second) await verify(server, email, first, 'login').expect(400)
      await verify(server, email, second, 'login').expect(200)
    },
    EXPIRY_TEST_TIMEOUT_MS,
  )

  test('the fifth wrong attempt burns the code', async () => {
    const email = await verifiedEmail()
    const { api } = server
    await send(server, email, 'login').expect(202)
    const code = await readCode(api, email, 'login')
    const wrong = code === '000000' ? '111111' : '000000'
    const left: number[] = []
    for (let attempt = 0; attempt < 4; attempt += 1) {
      left.push((await verify(server, email, wrong, 'login').expect(400)).body.attempts_left)
    }
    expect(left).toEqual([4, 3, 2, 1])
    expect((await verify(server, email, wrong, 'login').expect(429)).body.error).toBe('too_many_attempts')
    expect((await verify(server, email, code, 'login').expect(429)).body.error).toBe('too_many_attempts')
  })

  test('a code is bound to its purpose', async () => {
    const email = await verifiedEmail()
    await send(server, email, 'reset').expect(202)
    const code = await readCode(server.api, email, 'reset')
    await verify(server, email, code, 'login').expect(400)
    await verify(server, email, code, 'reset').expect(200)
  })

  test('a code expires after 10 minutes', async () => {
    const email = await verifiedEmail()
    await send(server, email, 'login').expect(202)
    const code = await readCode(server.api, email, 'login')
    await advanceClock(server.api, 10 * 60_000)
    await verify(server, email, code, 'login').expect(400)
  })

  test('concurrent submissions of the right code: exactly one succeeds', async () => {
    const email = await verifiedEmail()
    await send(server, email, 'login').expect(202)
    const code = await readCode(server.api, email, 'login')
    const answers = await Promise.all(Array.from({ length: 8 }, () => verify(server, email, code, 'login')))
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
  })

  test('codes are stored hashed: the store holds no code in clear', async () => {
    const email = await verifiedEmail()
    await send(server, email, 'login').expect(202)
    const code = await readCode(server.api, email, 'login')
    const stored = JSON.stringify((await server.app.core.ops.domain.store.snapshot()).codes)
    expect(stored).not.toContain(`"${code}"`)
  })

  test('refuses malformed requests', async () => {
    const email = uniqueEmail('malformed')
    const { api } = server
    expect((await verify(server, email, '12345', 'login').expect(400)).body.fields.code).toBeDefined()
    await send(server, email, 'admin').expect(400)
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
