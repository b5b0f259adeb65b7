// The attack suite, lock-out side (T10). The rules and their figures: docs/security/lockout.md.
// Each client has an address of its own. In process it is sent as X-Forwarded-For to a server whose clock stands
// still unless a test moves it, so every retry_after is exact. Against a CONTRACT_TARGET on 127.0.0.0/8 each client
// sends from a loopback address of its own, and the target's clock runs on (docs/contract-suite.md, "Codes without
// /__mock").
import { randomInt } from 'node:crypto'
import type { Response } from 'supertest'
import { describe, expect, test } from 'vitest'
import {
  advanceClock,
  createTestServer,
  PASSWORD,
  readCode,
  requireControl,
  requireOwnServer,
  signUp,
  uniqueEmail,
  type TestServer,
  resetPassword,
} from '#contracts/fixtures.ts'
import { asClient } from '#contracts/support/client-address.ts'
import { isLoopbackTarget } from '#contracts/support/loopback-target.ts'
import { notCheckable, TARGET_URL } from '#contracts/support/target.ts'
import { MANY_CALLS_TIMEOUT_MS } from '#contracts/support/test-server.ts'

const THRESHOLD = 10
const LOCK_SECONDS = 15 * 60
const CEILING = 100
const PACE_SECONDS = 120
const WRONG = 'not the password at all'
const START = Date.UTC(2026, 10, 25, 9)
/**
 * Against a target the clock runs on while a check goes, so a wait reads a few seconds short of its whole length;
 * one this much short of a lock's or a pace's still reads as it. In process the clock stands still: exact.
 */
const RUNNING_CLOCK_SLACK_SECONDS = 60
/**
 * How long before a lock's end a check of a target still finds it locked: the seconds its own calls may take on a
 * loaded machine, since the target's clock runs on. In process the clock stands still, so one second.
 */
const STILL_LOCKED_MS = TARGET_URL ? 30_000 : 1000

const INVALID = {
  status: 401,
  body: { error: 'invalid_credentials', message: 'The e-mail address or password is incorrect.' },
}

async function createServer(): Promise<TestServer> {
  if (!TARGET_URL) return createTestServer({ trustProxyHops: 1, realNow: () => START })
  if (!isLoopbackTarget(TARGET_URL))
    notCheckable(
      'needs requests from several client addresses, which the suite sends only to a target on 127.0.0.0/8',
    )
  return createTestServer()
}

/** A POST from the client at `address` (see the file's header). */
function postFrom(server: TestServer, address: string, path: string) {
  if (TARGET_URL) return asClient(address, () => server.api.post(path))
  return server.api.post(path).set('X-Forwarded-For', address)
}

const loginFrom = (server: TestServer, address: string, email: string, password: string) =>
  postFrom(server, address, '/api/auth/login').send({ email, password })

/** A wait as this file compares it: whole against a target when it is a lock's or a pace's, a little short. */
function wholeWait(seconds: number): number {
  if (!TARGET_URL) return seconds
  const whole = [LOCK_SECONDS, PACE_SECONDS].find(
    (wait) => seconds <= wait && seconds > wait - RUNNING_CLOCK_SLACK_SECONDS,
  )
  return whole ?? seconds
}

/** What a client sees of an answer: status, body, and the Retry-After header when there is one. */
function seen(res: Response) {
  const body = { ...(res.body as Record<string, unknown>) }
  if (typeof body.retry_after === 'number') {
    const wait = body.retry_after
    body.retry_after = wholeWait(wait)
    if (body.message === `Too many attempts. Try again in ${wait} seconds.`)
      body.message = `Too many attempts. Try again in ${wholeWait(wait)} seconds.`
  }
  const header = res.headers['retry-after'] as string | undefined
  return {
    status: res.status,
    body,
    ...(header !== undefined && { retryAfter: /^\d+$/.test(header) ? String(wholeWait(+header)) : header }),
  }
}

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

/** CEILING wrong passwords for `email` from CEILING / THRESHOLD addresses (each locked), then two fresh ones. */
async function attackPastCeiling(server: TestServer, email: string) {
  const answers = []
  for (let bot = 1; bot <= CEILING / THRESHOLD; bot += 1)
    answers.push(...(await guess(server, `198.51.100.${bot}`, email, THRESHOLD)))
  answers.push(...(await guess(server, '198.51.100.201', email, 1)))
  answers.push(...(await guess(server, '198.51.100.202', email, 1)))
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
  })

  test('T10 a lock-out ends after its 15 minutes, not before', async () => {
    const server = await createServer()
    requireControl(server.api)
    const account = await signUp(server.api, 't10-ends')
    const attacker = '198.51.100.8'
    await guess(server, attacker, account.email, THRESHOLD)

    await advanceClock(server.api, LOCK_SECONDS * 1000 - STILL_LOCKED_MS)
    expect(seen(await loginFrom(server, attacker, account.email, account.password))).toEqual(INVALID)
    await advanceClock(server.api, STILL_LOCKED_MS)
    expect((await loginFrom(server, attacker, account.email, account.password)).status).toBe(200)
  })

  test('T10 password brute force from many addresses: the per-account ceiling paces, the owner at home is not', async () => {
    const server = await createServer()
    const account = await signUp(server.api, 't10-many')
    const unknown = uniqueEmail('t10-nobody')
    const home = '192.0.2.20'
    const travelling = '203.0.113.20'
    // The owner signed in from home before the attack: an address the account knows.
    expect((await loginFrom(server, home, account.email, account.password)).status).toBe(200)

    /** The attack, then the right password (of the known account) from an address the account does not know. */
    const attack = async (email: string) => [
      ...(await attackPastCeiling(server, email)),
      seen(await loginFrom(server, travelling, email, account.password)),
    ]
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
  })

  test('T10 past the ceiling, the owner elsewhere is slowed, not refused, and that address is known from then on', async () => {
    const server = await createServer()
    requireControl(server.api)
    const account = await signUp(server.api, 't10-slowed')
    const travelling = '203.0.113.21'
    await attackPastCeiling(server, account.email)
    expect(seen(await loginFrom(server, travelling, account.email, account.password))).toEqual(
      paced(PACE_SECONDS),
    )

    // After retry_after the right password signs in ...
    await advanceClock(server.api, PACE_SECONDS * 1000)
    expect((await loginFrom(server, travelling, account.email, account.password)).status).toBe(200)
    // ... and that address is known from now on, while others are still paced.
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
  })

  test('T10 another address of the attacker’s IPv6 /64 is the same client: locked too', async () => {
    // IPv6 addresses the server reads from X-Forwarded-For, so a server that trusts one proxy hop: in process one whose
    // clock stands still, against a target one declared to trust a hop (CONTRACT_TARGET_TRUST_PROXY), from /64s
    // fresh each run.
    const server = await createTestServer({ trustProxyHops: 1, ...(!TARGET_URL && { realNow: () => START }) })
    const account = await signUp(server.api, 't10-owner6')
    const loginVia = (address: string, password: string) =>
      server.api
        .post('/api/auth/login')
        .set('X-Forwarded-For', address)
        .send({ email: account.email, password })
    const anyNet = () => `2001:db8:${randomInt(65536).toString(16)}:${randomInt(65536).toString(16)}`
    const [attacker, other] = TARGET_URL ? [anyNet(), anyNet()] : ['2001:db8:66:0', '2001:db8:67:0']
    for (let i = 0; i < THRESHOLD; i += 1) await loginVia(`${attacker}::1`, WRONG)
    expect(seen(await loginVia(`${attacker}::ffff`, account.password))).toEqual(INVALID)
    expect((await loginVia(`${other}::1`, account.password)).status).toBe(200)
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
    await postFrom(server, owner, '/api/auth/otp/send')
      .send({ email: account.email, purpose: 'login' })
      .expect(202)
    const code = await readCode(server.api, account.email, 'login')
    const verifyFrom = (address: string, email: string) =>
      postFrom(server, address, '/api/auth/otp/verify').send({ email, code, purpose: 'login' })
    const refused = seen(await verifyFrom(attacker, account.email))
    expect(refused).toEqual(paced(LOCK_SECONDS))
    expect(seen(await verifyFrom(attacker, unknown)), 'an unknown address, locked alike').toEqual(refused)
    // The refusal neither used nor burned the code: the owner signs in with it.
    expect((await verifyFrom(owner, account.email)).status).toBe(200)
  })

  test('T10 a code sign-in refused for a lock-out leaves the code untouched', async () => {
    requireOwnServer('reads the code the in-process app stores')
    const server = await createServer()
    const account = await signUp(server.api, 't10-untouched')
    const attacker = '198.51.100.41'
    await guess(server, attacker, account.email, THRESHOLD)
    await postFrom(server, '192.0.2.41', '/api/auth/otp/send')
      .send({ email: account.email, purpose: 'login' })
      .expect(202)
    const code = await readCode(server.api, account.email, 'login')
    await postFrom(server, attacker, '/api/auth/otp/verify')
      .send({ email: account.email, code, purpose: 'login' })
      .expect(429)
    const record = await server.app.core.ops.domain.store.codes.latest(account.email, 'login')
    expect(record).toMatchObject({ usedAt: null, attempts: 0, burned: false })
  })

  test('T10 once a lock-out ends, the address may sign in by code again', async () => {
    const server = await createServer()
    requireControl(server.api)
    const account = await signUp(server.api, 't10-code-ends')
    const attacker = '198.51.100.42'
    await guess(server, attacker, account.email, THRESHOLD)

    await advanceClock(server.api, LOCK_SECONDS * 1000)
    await postFrom(server, attacker, '/api/auth/otp/send')
      .send({ email: account.email, purpose: 'login' })
      .expect(202)
    const code = await readCode(server.api, account.email, 'login')
    await postFrom(server, attacker, '/api/auth/otp/verify')
      .send({ email: account.email, code, purpose: 'login' })
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
    postFrom(server, address, '/api/auth/update_password')
      .set('Authorization', `Bearer ${account.token}`)
      .send({ current_password: current, password: PASSWORD + ' changed' })
  for (let i = 0; i < THRESHOLD; i += 1) expect((await change(thief, WRONG)).status).toBe(400)
  // Locked: the right current password is not even looked at, and the sign-in from that address is refused.
  expect(seen(await change(thief, account.password))).toEqual(paced(LOCK_SECONDS))
  expect(seen(await loginFrom(server, thief, account.email, account.password))).toEqual(INVALID)
  // The owner, from their own address, is untouched.
  expect((await change(owner, account.password)).status).toBe(200)
})
