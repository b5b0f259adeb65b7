// The attack suite, lock-out side (T10). The rules and their figures: docs/security/lockout.md.
// Each client gets its own address via X-Forwarded-For. The clock stands still unless a test moves it,
// so every retry_after is exact.
import type { Response } from 'supertest'
import { describe, expect, test } from 'vitest'
import {
  advanceClock,
  createTestServer,
  PASSWORD,
  readCode,
  signUp,
  uniqueEmail,
  type TestServer,
  resetPassword,
} from '#contracts/fixtures.ts'
import { MANY_CALLS_TIMEOUT_MS } from '#contracts/support/test-server.ts'

const THRESHOLD = 10
const LOCK_SECONDS = 15 * 60
const CEILING = 100
const PACE_SECONDS = 120
const WRONG = 'not the password at all'
const START = Date.UTC(2026, 10, 25, 9)

const INVALID = {
  status: 401,
  body: { error: 'invalid_credentials', message: 'The e-mail address or password is incorrect.' },
}

async function createServer(): Promise<TestServer> {
  return createTestServer({ trustProxyHops: 1, realNow: () => START })
}

const loginFrom = (server: TestServer, address: string, email: string, password: string) =>
  server.api.post('/api/auth/login').set('X-Forwarded-For', address).send({ email, password })

/** What a client sees of an answer: status, body, and the Retry-After header when there is one. */
const seen = (res: Response) => ({
  status: res.status,
  body: res.body as Record<string, unknown>,
  ...(res.headers['retry-after'] !== undefined && { retryAfter: res.headers['retry-after'] as string }),
})

const paced = (seconds: number) => ({
  status: 429,
  body: {
    error: 'rate_limited',
    message: `Too many attempts. Try again in ${seconds} seconds.`,
    retry_after: seconds,
  },
  retryAfter: String(seconds),
})

/** `times` wrong passwords for `email` from `address`; the answers seen. */
async function guess(server: TestServer, address: string, email: string, times: number) {
  const answers = []
  for (let i = 0; i < times; i += 1) answers.push(seen(await loginFrom(server, address, email, WRONG)))
  return answers
}

describe('T10 password guessing', { timeout: MANY_CALLS_TIMEOUT_MS }, () => {
  test('T10 password brute force from one address: locked after N, the right password refused from that address, same answer for unknown addresses', async () => {
    const server = await createServer()
    const account = await signUp(server.api, 't10-one')
    const unknown = uniqueEmail('t10-nobody')
    const attacker = '198.51.100.7'
    const owner = '192.0.2.10'

    // N - 1 wrong passwords do not lock: the right one still signs in from that address.
    const other = await signUp(server.api, 't10-other')
    await guess(server, attacker, other.email, THRESHOLD - 1)
    expect((await loginFrom(server, attacker, other.email, other.password)).status).toBe(200)

    // N - 1 wrong passwords, then the owner signs in elsewhere: that gives the attacker no fresh count.
    const runs = { known: [] as unknown[], unknown: [] as unknown[] }
    runs.known.push(...(await guess(server, attacker, account.email, THRESHOLD - 1)))
    expect((await loginFrom(server, owner, account.email, account.password)).status).toBe(200)
    runs.known.push(...(await guess(server, attacker, account.email, 1)))
    runs.known.push(seen(await loginFrom(server, attacker, account.email, account.password)))
    runs.known.push(seen(await loginFrom(server, attacker, account.email, WRONG)))
    expect(runs.known, 'locked after N: the right password gets the wrong-password answer').toEqual(
      Array<unknown>(THRESHOLD + 2).fill(INVALID),
    )

    // An unknown address, the same steps: the same answers, one by one.
    runs.unknown.push(...(await guess(server, attacker, unknown, THRESHOLD - 1)))
    expect((await loginFrom(server, owner, unknown, account.password)).status).toBe(401)
    runs.unknown.push(...(await guess(server, attacker, unknown, 1)))
    runs.unknown.push(seen(await loginFrom(server, attacker, unknown, account.password)))
    runs.unknown.push(seen(await loginFrom(server, attacker, unknown, WRONG)))
    expect(runs.unknown).toEqual(runs.known)

    // The lock ends after its 15 minutes, not before.
    await advanceClock(server.api, LOCK_SECONDS * 1000 - 1000)
    expect(seen(await loginFrom(server, attacker, account.email, account.password))).toEqual(INVALID)
    await advanceClock(server.api, 1000)
    expect((await loginFrom(server, attacker, account.email, account.password)).status).toBe(200)
  })

  test('T10 password brute force from many addresses: the per-account ceiling slows but the owner signs in', async () => {
    const server = await createServer()
    const account = await signUp(server.api, 't10-many')
    const unknown = uniqueEmail('t10-nobody')
    const home = '192.0.2.20'
    const travelling = '203.0.113.20'
    // The owner signed in from home before the attack: an address the account knows.
    expect((await loginFrom(server, home, account.email, account.password)).status).toBe(200)

    /** CEILING wrong passwords from CEILING / THRESHOLD addresses (each locked), then two fresh addresses. */
    async function attack(email: string) {
      const answers = []
      for (let bot = 1; bot <= CEILING / THRESHOLD; bot += 1)
        answers.push(...(await guess(server, `198.51.100.${bot}`, email, THRESHOLD)))
      answers.push(...(await guess(server, '198.51.100.201', email, 1)))
      answers.push(...(await guess(server, '198.51.100.202', email, 1)))
      // The right password (of the known account) from an address the account does not know.
      answers.push(seen(await loginFrom(server, travelling, email, account.password)))
      return answers
    }
    const known = await attack(account.email)
    expect(known.slice(0, CEILING + 1), 'up to the ceiling, and the first attempt of a pace window').toEqual(
      Array<unknown>(CEILING + 1).fill(INVALID),
    )
    expect(known.slice(CEILING + 1), 'past it, paced: right or wrong, the same 429').toEqual([
      paced(PACE_SECONDS),
      paced(PACE_SECONDS),
    ])
    expect(await attack(unknown), 'an unknown address: the same answers, one by one').toEqual(known)

    // The owner at home is not paced, however the attack goes on.
    expect((await loginFrom(server, home, account.email, account.password)).status).toBe(200)
    expect(seen(await loginFrom(server, '198.51.100.203', account.email, WRONG))).toEqual(paced(PACE_SECONDS))
    // The owner elsewhere is slowed, not refused: after retry_after the right password signs in.
    await advanceClock(server.api, PACE_SECONDS * 1000)
    expect((await loginFrom(server, travelling, account.email, account.password)).status).toBe(200)
    // ... and that address is known from now on.
    expect((await loginFrom(server, travelling, account.email, account.password)).status).toBe(200)
    expect(seen(await loginFrom(server, '198.51.100.204', account.email, WRONG))).toEqual(paced(PACE_SECONDS))
  })

  test('T10 the owner from another address signs in while the attacker is locked out', async () => {
    const server = await createServer()
    const account = await signUp(server.api, 't10-owner')
    const attacker = '198.51.100.30'
    const owner = '2001:db8:30::1'
    expect(await guess(server, attacker, account.email, THRESHOLD)).toEqual(
      Array<unknown>(THRESHOLD).fill(INVALID),
    )
    expect(seen(await loginFrom(server, attacker, account.email, account.password))).toEqual(INVALID)

    expect((await loginFrom(server, owner, account.email, account.password)).status).toBe(200)
    // The owner's own mistakes are counted for the owner's address alone, and the attacker stays locked.
    await guess(server, owner, account.email, THRESHOLD - 1)
    const again = await loginFrom(server, owner, account.email, account.password).expect(200)
    expect(again.body.user.email).toBe(account.email)
    expect(seen(await loginFrom(server, attacker, account.email, account.password))).toEqual(INVALID)
    // Another address of the attacker's /64 is the same client: locked too.
    const ipv6Server = await createServer()
    const other = await signUp(ipv6Server.api, 't10-owner6')
    await guess(ipv6Server, '2001:db8:66::1', other.email, THRESHOLD)
    expect(seen(await loginFrom(ipv6Server, '2001:db8:66::ffff', other.email, other.password))).toEqual(
      INVALID,
    )
    expect((await loginFrom(ipv6Server, '2001:db8:67::1', other.email, other.password)).status).toBe(200)
  })

  test('T10 a locked account is locked for code sign-in too', async () => {
    const server = await createServer()
    const account = await signUp(server.api, 't10-code')
    const unknown = uniqueEmail('t10-nobody')
    const attacker = '198.51.100.40'
    const owner = '192.0.2.40'
    await guess(server, attacker, account.email, THRESHOLD)
    await guess(server, attacker, unknown, THRESHOLD)

    // The owner asks for a sign-in code; the locked address tries it.
    await server.api
      .post('/api/auth/otp/send')
      .set('X-Forwarded-For', owner)
      .send({ email: account.email, purpose: 'login' })
      .expect(202)
    const code = await readCode(server.api, account.email, 'login')
    const verifyFrom = (address: string, email: string, purpose = 'login') =>
      server.api.post('/api/auth/otp/verify').set('X-Forwarded-For', address).send({ email, code, purpose })
    const refused = seen(await verifyFrom(attacker, account.email))
    expect(refused).toEqual({
      status: 429,
      body: {
        error: 'rate_limited',
        message: `Too many attempts. Try again in ${LOCK_SECONDS} seconds.`,
        retry_after: LOCK_SECONDS,
      },
      retryAfter: String(LOCK_SECONDS),
    })
    expect(seen(await verifyFrom(attacker, unknown)), 'an unknown address, locked alike').toEqual(refused)

    // The refusal neither used nor counted the code: the owner signs in with it.
    const { store } = server.app.core.ops.domain
    const record = await store.codes.latest(account.email, 'login')
    expect(record).toMatchObject({ usedAt: null, attempts: 0, burned: false })
    expect((await verifyFrom(owner, account.email)).status).toBe(200)

    // Once the lock ends, the address may sign in by code again.
    await advanceClock(server.api, LOCK_SECONDS * 1000)
    await server.api
      .post('/api/auth/otp/send')
      .set('X-Forwarded-For', attacker)
      .send({ email: account.email, purpose: 'login' })
      .expect(202)
    const later = await readCode(server.api, account.email, 'login')
    await server.api
      .post('/api/auth/otp/verify')
      .set('X-Forwarded-For', attacker)
      .send({ email: account.email, code: later, purpose: 'login' })
      .expect(200)
  })
})

test('a password reset lifts the lock-out of every address', async () => {
  const server = await createServer()
  const account = await signUp(server.api, 't10-reset')
  const attacker = '198.51.100.50'
  await guess(server, attacker, account.email, THRESHOLD)
  await resetPassword(server.api, account.email, PASSWORD + ' renewed')
  expect((await loginFrom(server, attacker, account.email, PASSWORD + ' renewed')).status).toBe(200)
})

test('wrong current passwords on a signed-in change count towards the lock-out of that address', async () => {
  const server = await createServer()
  const account = await signUp(server.api, 't10-change')
  const thief = '198.51.100.60'
  const owner = '192.0.2.60'
  const change = (address: string, current: string) =>
    server.api
      .post('/api/auth/update_password')
      .set('X-Forwarded-For', address)
      .set('Authorization', `Bearer ${account.token}`)
      .send({ current_password: current, password: PASSWORD + ' changed' })
  for (let i = 0; i < THRESHOLD; i += 1) expect((await change(thief, WRONG)).status).toBe(400)
  // Locked: the right current password is not even looked at, and the sign-in from that address is refused.
  expect(seen(await change(thief, account.password))).toEqual(paced(LOCK_SECONDS))
  expect(seen(await loginFrom(server, thief, account.email, account.password))).toEqual(INVALID)
  // The owner, from their own address, is untouched.
  expect((await change(owner, account.password)).status).toBe(200)
})
