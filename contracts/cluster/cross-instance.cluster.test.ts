// Three real instances on one PostgreSQL schema behave as one server (docs/mock-server.md, "Where the state lives"):
// the cross-instance rules, each sent to the instances themselves, and a burst sent through the balancer. Run by
// the balancer leg (harness/balancer-leg.ts), which starts them and names them in CLUSTER_*.
import { beforeEach, describe, expect, test } from 'vitest'
import { createMockClient } from '#api/mock-client.ts'
import { CODE_MAX_ATTEMPTS, LOCKOUT_THRESHOLD } from '#mock-server/shared/constants.ts'

const origins = (process.env.CLUSTER_ORIGINS ?? '').split(',').filter(Boolean)
const balancer = process.env.CLUSTER_BALANCER ?? ''
const controlToken = process.env.CLUSTER_CONTROL_TOKEN ?? ''
if (origins.length < 3 || !balancer || !controlToken)
  throw new Error('Run these through npm run test:contracts:balancer, which starts the instances they need.')

const ADA = { email: 'ada@example.com', password: 'analytical-engine-1843' }
const control = (origin: string) => createMockClient({ baseUrl: origin, controlToken })

interface Answer {
  status: number
  body: Record<string, unknown>
}

async function call(origin: string, method: string, path: string, body?: unknown, token?: string) {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      ...(body !== undefined && { 'Content-Type': 'application/json' }),
      ...(token && { Authorization: `Bearer ${token}` }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : {} } as Answer
}

const signIn = async (origin: string) => {
  const answer = await call(origin, 'POST', '/api/auth/login', ADA)
  expect(answer.status).toBe(200)
  return { token: String(answer.body.token), refreshToken: String(answer.body.refresh_token) }
}

beforeEach(async () => {
  await control(origins[0]!).reset()
})

describe('three instances on one database', () => {
  test('a token signed in on one works on the others; a log-out on one refuses it on all at once', async () => {
    const { token } = await signIn(origins[0]!)
    expect((await call(origins[1]!, 'GET', '/api/me', undefined, token)).status).toBe(200)
    expect((await call(origins[1]!, 'DELETE', '/api/_auth/session', undefined, token)).status).toBe(200)
    for (const origin of origins) {
      const refused = await call(origin, 'GET', '/api/me', undefined, token)
      expect([refused.status, refused.body.error]).toEqual([401, 'session_revoked'])
    }
  })

  test('100 refreshes of one token at once through the balancer give one successor pair, valid everywhere', async () => {
    const { refreshToken } = await signIn(origins[2]!)
    const answers = await Promise.all(
      Array.from({ length: 100 }, () =>
        call(balancer, 'POST', '/api/refresh_token', { refresh_token: refreshToken }),
      ),
    )
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200))
    const pairs = new Set(answers.map((answer) => `${answer.body.token} ${answer.body.refresh_token}`))
    expect(pairs.size).toBe(1)
    for (const origin of origins)
      expect((await call(origin, 'GET', '/api/me', undefined, String(answers[0]!.body.token))).status).toBe(
        200,
      )
  })

  test('a retired refresh token reused after the grace window revokes the family on every instance', async () => {
    const first = await signIn(origins[0]!)
    const rotated = await call(origins[1]!, 'POST', '/api/refresh_token', {
      refresh_token: first.refreshToken,
    })
    expect(rotated.status).toBe(200)
    await control(origins[2]!).advanceClock(60_000)
    const reused = await call(origins[2]!, 'POST', '/api/refresh_token', {
      refresh_token: first.refreshToken,
    })
    expect([reused.status, reused.body.error]).toEqual([401, 'refresh_reused'])
    // The successor was revoked with its family, wherever it is presented.
    for (const origin of origins) {
      const refused = await call(origin, 'POST', '/api/refresh_token', {
        refresh_token: rotated.body.refresh_token,
      })
      expect(refused.status).toBe(401)
    }
  })

  test('wrong passwords spread over the instances lock the account out on all at the threshold', async () => {
    for (let attempt = 0; attempt < LOCKOUT_THRESHOLD; attempt += 1) {
      const wrong = await call(origins[attempt % 3]!, 'POST', '/api/auth/login', {
        ...ADA,
        password: 'wrong-password-1',
      })
      expect(wrong.status).toBe(401)
    }
    for (const origin of origins) {
      const refused = await call(origin, 'POST', '/api/auth/login', ADA)
      expect([refused.status, refused.body.error]).toEqual([401, 'invalid_credentials'])
    }
  })

  test("wrong guesses at one code, spread over the instances, burn it on all at the code's limit", async () => {
    const sent = await call(origins[0]!, 'POST', '/api/auth/otp/send', { email: ADA.email, purpose: 'login' })
    expect(sent.status).toBe(202)
    const [mail] = await control(origins[1]!).mailbox(ADA.email)
    const guess = (origin: string, code = '000000') =>
      call(origin, 'POST', '/api/auth/otp/verify', { email: ADA.email, purpose: 'login', code })
    const wrong = mail!.code === '000000' ? '111111' : '000000'
    const errors = []
    for (let attempt = 0; attempt < CODE_MAX_ATTEMPTS; attempt += 1)
      errors.push((await guess(origins[attempt % 3]!, wrong)).body.error)
    expect(errors.at(0)).toBe('invalid_code')
    expect(errors.at(-1)).toBe('too_many_attempts')
    // Burnt everywhere: the right code no longer signs in, whichever instance it is sent to.
    for (const origin of origins)
      expect((await guess(origin, mail!.code)).body.error).toBe('too_many_attempts')
  })

  test('a scenario armed through one is served exactly as many times as armed, whichever instance answers', async () => {
    await control(origins[0]!).arm({ name: 'server-error', operation: 'getSession', times: 4 })
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, index) => call(origins[index % 3]!, 'GET', '/api/_auth/session')),
    )
    expect(answers.filter((answer) => answer.status === 503)).toHaveLength(4)
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(8)
    expect((await control(origins[2]!).scenarios()).armed).toEqual([])
  })

  test("one instance's clock move is seen by every instance from the next call on", async () => {
    const { token } = await signIn(origins[0]!)
    const moved = await control(origins[1]!).advanceClock(3_600_000)
    for (const origin of origins) {
      expect((await control(origin).clock()).offset_ms).toBe(moved.offset_ms)
      const expired = await call(origin, 'GET', '/api/me', undefined, token)
      expect([expired.status, expired.body.error]).toEqual([401, 'token_expired'])
    }
  })

  test("the mailbox and the journal are every instance's, and a reset through one empties them for all", async () => {
    const email = 'lin@example.com'
    const signup = { name: 'Lin', email, password: 'a long enough passphrase' }
    expect((await call(origins[0]!, 'POST', '/api/auth/signup', signup)).status).toBe(202)
    expect((await call(origins[1]!, 'POST', '/api/auth/forgot', { email: ADA.email })).status).toBe(202)
    const mails = await control(origins[2]!).mailbox()
    expect(mails.map((mail) => mail.to)).toEqual([email, ADA.email])
    const journal = await control(origins[2]!).journal()
    expect(journal.map((entry) => entry.operation)).toEqual(['signup', 'forgotPassword'])
    await control(origins[1]!).reset()
    for (const origin of origins) {
      expect(await control(origin).mailbox()).toEqual([])
      expect(await control(origin).journal()).toEqual([])
    }
  })
})
