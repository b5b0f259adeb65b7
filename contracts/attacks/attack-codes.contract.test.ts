// The attack suite, code side: one test per attack on one-time codes and addresses.
// The rules are in docs/security/codes.md; the list of attacks in docs/security/attack-suite.md.
import { describe, expect, test } from 'vitest'
import type { Response } from 'supertest'
import {
  advanceClock,
  createTestServer,
  mockOf,
  readCode,
  requireControl,
  signUp,
  startLiveServer,
  uniqueEmail,
  type LiveServer,
} from '#contracts/fixtures.ts'
import { MANY_CALLS_TIMEOUT_MS } from '#contracts/support/test-server.ts'
import { exchangeCallback, PUBLIC_ORIGIN, signInAtIdp } from '#contracts/support/external-sign-in.ts'
import { PENDING_PASSWORD_MS } from '#mock-server/shared/constants.ts'
import type { ContractAgent } from '#contracts/support/api.ts'
import { EXPIRY_TEST_TIMEOUT_MS, waitPast } from '#contracts/support/expiry.ts'
import { notCheckable } from '#contracts/support/target.ts'

const COOLDOWN_MS = 30_000
const HOUR_MS = 60 * 60_000
const GRACE_PASSWORD = 'compiler-pioneer-1952' // a seeded account (README)

const send = (api: ContractAgent, email: string, purpose: string) =>
  api.post('/api/auth/otp/send').send({ email, purpose })
const verify = (api: ContractAgent, email: string, code: string, purpose: string) =>
  api.post('/api/auth/otp/verify').send({ email, code, purpose })

/** A code that is not `code`. */
const wrongFor = (code: string) => (code === '000000' ? '111111' : '000000')

/** What a guess answered, without what differs between two equal answers (nothing should). */
const answerOf = (res: Response) => ({
  status: res.status,
  error: res.body.error as string,
  attemptsLeft: res.body.attempts_left as number | undefined,
})

describe('T11 guessing codes', () => {
  test('T11 code brute force: wrong codes count per address across resends; at 20 an hour nothing is checked, known or unknown', async () => {
    const { api } = await createTestServer()
    const known = 'grace@example.com'
    const unknown = uniqueEmail('nobody')
    const answers: Record<string, ReturnType<typeof answerOf>[]> = { [known]: [], [unknown]: [] }
    // Guess, resend when the code is burned, until the ceiling answers (or far past where it should have).
    for (let round = 0; round < 8 && answers[known]!.at(-1)?.error !== 'rate_limited'; round += 1) {
      for (const email of [known, unknown]) await send(api, email, 'login').expect(202)
      for (let guess = 0; guess < 5; guess += 1) {
        for (const email of [known, unknown])
          answers[email]!.push(answerOf(await verify(api, email, '000000', 'login')))
        if (answers[known]!.at(-1)!.status === 429) break
      }
      await advanceClock(api, COOLDOWN_MS)
    }
    const perCode = (left: number[]) => [
      ...left.map((attemptsLeft) => ({ status: 400, error: 'invalid_code', attemptsLeft })),
      { status: 429, error: 'too_many_attempts', attemptsLeft: undefined },
    ]
    expect(answers[known]).toEqual([
      ...perCode([4, 3, 2, 1]),
      ...perCode([4, 3, 2, 1]),
      ...perCode([4, 3, 2, 1]),
      ...perCode([4, 3, 2, 1]).slice(0, 4),
      { status: 429, error: 'rate_limited', attemptsLeft: undefined },
    ])
    expect(answers[unknown], 'an unknown address answers every guess alike').toEqual(answers[known])

    // Past the ceiling a new code, even the right one, is not checked until the hour has passed.
    await send(api, known, 'login').expect(202)
    const code = await readCode(api, known, 'login')
    const refused = await verify(api, known, code, 'login').expect(429)
    expect(refused.body).toMatchObject({ error: 'rate_limited' })
    expect(refused.body.retry_after).toBeGreaterThan(HOUR_MS / 1000 - 5 * 60)
    expect(refused.body.retry_after).toBeLessThanOrEqual(HOUR_MS / 1000)
    expect(refused.headers['retry-after']).toBe(String(refused.body.retry_after))
    await advanceClock(api, refused.body.retry_after * 1000)
    await send(api, known, 'login').expect(202)
    await verify(api, known, await readCode(api, known, 'login'), 'login').expect(200)
  })

  test('T11 code brute force: the ceiling is per purpose, and otp/verify is limited per client across addresses', async () => {
    const { api } = await createTestServer({ verifyRateLimit: { max: 3, windowMs: 60_000 } })
    await send(api, 'grace@example.com', 'login').expect(202)
    const code = await readCode(api, 'grace@example.com', 'login')
    for (const email of [uniqueEmail('a'), uniqueEmail('b'), 'grace@example.com'])
      expect((await verify(api, email, wrongFor(code), 'login').expect(400)).body.error).toBe('invalid_code')
    const refused = await verify(api, 'grace@example.com', code, 'login').expect(429)
    expect(refused.body).toMatchObject({ error: 'rate_limited', retry_after: 60 })
    expect(refused.headers['retry-after']).toBe('60')
    await advanceClock(api, 60_000)
    await verify(api, 'grace@example.com', code, 'login').expect(200)

    // The ceiling of one purpose leaves the others alone (each is bounded on its own: docs/security/codes.md).
    const { api: other } = await createTestServer({ codeGuessLimit: { max: 2, windowMs: HOUR_MS } })
    await send(other, 'ada@example.com', 'login').expect(202)
    await send(other, 'ada@example.com', 'reset').expect(202)
    await verify(other, 'ada@example.com', '000000', 'login').expect(400)
    expect((await verify(other, 'ada@example.com', '000000', 'login').expect(429)).body.error).toBe(
      'rate_limited',
    )
    await verify(other, 'ada@example.com', await readCode(other, 'ada@example.com', 'reset'), 'reset').expect(
      200,
    )
  })

  test('T11 the ceiling of wrong codes cannot be aimed at the owner: from an address that signed in, the right code still works', async () => {
    const { api } = await createTestServer({
      trustProxyHops: 1,
      codeGuessLimit: { max: 3, windowMs: HOUR_MS },
    })
    const owner = '192.0.2.70' // signs in from here, so the account knows it
    const from = (address: string) => ({ 'X-Forwarded-For': address })
    await api
      .post('/api/auth/login')
      .set(from(owner))
      .send({ email: 'grace@example.com', password: GRACE_PASSWORD })
      .expect(200)
    // An attacker asks for a reset code and spends the address's ceiling on wrong guesses.
    await api
      .post('/api/auth/forgot')
      .set(from('198.51.100.70'))
      .send({ email: 'grace@example.com' })
      .expect(202)
    const first = await readCode(api, 'grace@example.com', 'reset')
    for (const address of ['198.51.100.71', '198.51.100.72', '198.51.100.73'])
      await verify(api, 'grace@example.com', wrongFor(first), 'reset').set(from(address))
    const refused = await verify(api, 'grace@example.com', first, 'reset')
      .set(from('198.51.100.74'))
      .expect(429)
    expect(refused.body.error).toBe('rate_limited')
    // From a new address the owner is held to the ceiling too; from the address she signed in from, not.
    await advanceClock(api, COOLDOWN_MS)
    await api.post('/api/auth/forgot').set(from(owner)).send({ email: 'grace@example.com' }).expect(202)
    const mine = await readCode(api, 'grace@example.com', 'reset')
    await verify(api, 'grace@example.com', mine, 'reset').set(from('203.0.113.70')).expect(429)
    const reset = await verify(api, 'grace@example.com', mine, 'reset').set(from(owner)).expect(200)
    expect(reset.body.reset_token).toEqual(expect.any(String))
  })

  /** 20 concurrent checks of one right login code for `email`: the answers. */
  async function raceRightAnswers(api: ContractAgent, email: string) {
    await send(api, email, 'login').expect(202)
    const code = await readCode(api, email, 'login')
    return Promise.all(Array.from({ length: 20 }, () => verify(api, email, code, 'login')))
  }

  test('T11 20 concurrent right answers: one wins', async () => {
    const { api } = await startLiveServer()
    const answers = await raceRightAnswers(api, (await signUp(api, 'race')).email)
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    for (const answer of answers.filter((each) => each.status !== 200))
      expect(['invalid_code', 'too_many_attempts']).toContain(answer.body.error)
  })

  test('T11 20 concurrent right answers start one session', async () => {
    const server = await startLiveServer()
    requireControl(server.api)
    const { email } = await signUp(server.api, 'race')
    const sessions = async () => (await server.mock.state()).store.sessions.length
    const sessionsBefore = await sessions()
    await raceRightAnswers(server.api, email)
    expect(await sessions(), 'one session started').toBe(sessionsBefore + 1)
  })
})

describe('T12 enumeration', { timeout: MANY_CALLS_TIMEOUT_MS }, () => {
  const SAMPLES = 50

  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b)
    const middle = Math.floor(sorted.length / 2)
    return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
  }

  /** Everything an answer shows but the date. */
  const visible = (res: Response) => {
    const { date: _date, ...headers } = res.headers as Record<string, string>
    return { status: res.status, body: res.body as unknown, headers }
  }

  /**
   * Counts the password hashing a call does (each hash and each verification), to compare the work of two paths.
   * The dummy hash is made once, as the server starts, so asking for it is no work.
   */
  function countHashing(server: LiveServer) {
    const hasher = server.app.core.ops.domain.hasher
    let count = 0
    const hash = hasher.hash.bind(hasher)
    const verify = hasher.verify.bind(hasher)
    hasher.hash = (...args) => {
      count += 1
      return hash(...args)
    }
    hasher.verify = (...args) => {
      count += 1
      return verify(...args)
    }
    return {
      async during<T>(call: () => Promise<T>): Promise<{ value: T; hashing: number; ms: number }> {
        const before = count
        const start = performance.now()
        const value = await call()
        return { value, hashing: count - before, ms: performance.now() - start }
      },
    }
  }

  /**
   * Runs `SAMPLES` alternating rounds of one call for a known and an unknown address, and checks they look alike and
   * do the same hashing work, the cost that would tell them apart. Times are printed, never asserted: client and
   * server share this process's two busy cores, and with a mutation run beside the suite one path's median ran six
   * times the other's on the same work.
   */
  async function compare(
    label: string,
    known: string,
    before: (api: ContractAgent) => Promise<void>,
    call: (api: ContractAgent, email: string) => Promise<Response>,
  ) {
    const server = await startLiveServer({
      loginRateLimit: { max: 100_000, windowMs: HOUR_MS },
      mailRateLimit: { max: 100_000, windowMs: HOUR_MS },
      verifyRateLimit: { max: 100_000, windowMs: HOUR_MS },
    })
    const counter = countHashing(server)
    const times = { known: [] as number[], unknown: [] as number[] }
    const hashing = { known: new Set<number>(), unknown: new Set<number>() }
    for (let round = 0; round < SAMPLES; round += 1) {
      await before(server.api)
      const order = round % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)
      const answers: Partial<Record<'known' | 'unknown', Response>> = {}
      for (const which of order) {
        const email = which === 'known' ? known : uniqueEmail('nobody')
        const measured = await counter.during(() => call(server.api, email))
        answers[which] = measured.value
        times[which].push(measured.ms)
        hashing[which].add(measured.hashing)
      }
      expect(visible(answers.unknown!), `${label}, round ${round}`).toEqual(visible(answers.known!))
    }
    expect([...hashing.unknown], `${label}: the same hashing work on both paths`).toEqual([...hashing.known])
    expect(hashing.known.size, `${label}: the same hashing work every time`).toBe(1)
    const medians = { known: median(times.known), unknown: median(times.unknown) }
    console.info(
      `T12 ${label}: median ${medians.known.toFixed(2)} ms known, ${medians.unknown.toFixed(2)} ms unknown ` +
        `(${SAMPLES} samples each, ${[...hashing.known][0]} password hash(es) per call)`,
    )
  }

  // Each round starts past the cooldown and the hour, so no limit tells the known address apart.
  const pastCooldown = (api: ContractAgent) => advanceClock(api, COOLDOWN_MS)
  const pastHour = (api: ContractAgent) => advanceClock(api, HOUR_MS)

  test('T12 enumeration: sign-up answers a taken and a new address alike', async () => {
    await compare('signup', 'ada@example.com', pastCooldown, (api, email) =>
      api.post('/api/auth/signup').send({ name: 'Probe', email, password: 'a probing passphrase' }),
    )
  })

  test('T12 enumeration: sign-in with a wrong password answers a known and an unknown address alike', async () => {
    // Past the lock-out each round, so this measures a plain wrong password (docs/security/lockout.md).
    const pastLockout = (api: ContractAgent) => advanceClock(api, 16 * 60_000)
    await compare('login', 'ada@example.com', pastLockout, (api, email) =>
      api.post('/api/auth/login').send({ email, password: 'not the password of anyone' }),
    )
  })

  test('T12 enumeration: a sign-up, then a sign-in with its password, answers a taken and a new address alike', async () => {
    const probe = async (api: ContractAgent, email: string) => {
      await api
        .post('/api/auth/signup')
        .send({ name: 'Probe', email, password: 'a probing passphrase' })
        .expect(202)
      return api.post('/api/auth/login').send({ email, password: 'a probing passphrase' })
    }
    await compare('signup, then login', 'ada@example.com', pastCooldown, probe)
    // Every state of an address answers the same: new, verified, unverified and contested.
    const server = await createTestServer()
    const contested = uniqueEmail('contested')
    await server.api
      .post('/api/auth/signup')
      .send({ name: 'First', email: contested, password: 'the first passphrase' })
    const answers = new Map<string, unknown>()
    for (const email of [uniqueEmail('new'), 'ada@example.com', 'alan@example.com', contested]) {
      await advanceClock(server.api, COOLDOWN_MS)
      const res = await probe(server.api, email)
      answers.set(email, { status: res.status, body: res.body })
    }
    expect(new Set([...answers.values()].map((answer) => JSON.stringify(answer)))).toEqual(
      new Set([
        JSON.stringify({
          status: 403,
          body: { error: 'unverified', message: 'Confirm your e-mail address to continue.' },
        }),
      ]),
    )
    // The owners' own passwords still sign in; the probe's never does.
    await server.api
      .post('/api/auth/login')
      .send({ email: 'ada@example.com', password: 'analytical-engine-1843' })
      .expect(200)
  })

  test('T12 enumeration: a sign-up, then a sign-in with its password, answers alike after the retention too', async () => {
    const { api } = await createTestServer()
    const fresh = uniqueEmail('retention')
    const signInBoth = async () => {
      const answers = []
      for (const email of ['grace@example.com', fresh]) {
        const res = await api.post('/api/auth/login').send({ email, password: 'a probing passphrase' })
        answers.push({ status: res.status, error: res.body.error as string })
      }
      return answers
    }
    for (const email of ['grace@example.com', fresh])
      await api
        .post('/api/auth/signup')
        .send({ name: 'Probe', email, password: 'a probing passphrase' })
        .expect(202)
    await advanceClock(api, PENDING_PASSWORD_MS - 120_000)
    expect(await signInBoth()).toEqual([
      { status: 403, error: 'unverified' },
      { status: 403, error: 'unverified' },
    ])
    // Past it the unverified account is purged with its password, so both answer 401.
    await advanceClock(api, 240_000)
    await api.get('/api/_auth/session').expect(200) // the purge runs before a call once a minute has passed
    expect(await signInBoth()).toEqual([
      { status: 401, error: 'invalid_credentials' },
      { status: 401, error: 'invalid_credentials' },
    ])
  })

  test('T12 enumeration: otp/resend answers a known and an unknown address alike', async () => {
    await compare('otp/send', 'ada@example.com', pastCooldown, (api, email) => send(api, email, 'login'))
  })

  test('T12 enumeration: forgot answers a known and an unknown address alike', async () => {
    await compare('forgot', 'ada@example.com', pastCooldown, (api, email) =>
      api.post('/api/auth/forgot').send({ email }),
    )
  })

  test('T12 enumeration: otp/verify answers a wrong code alike, whether the address has an account and a code or neither', async () => {
    let wrong = '000000'
    const codeSentToKnown = async (api: ContractAgent) => {
      await pastHour(api)
      await send(api, 'ada@example.com', 'login').expect(202)
      wrong = wrongFor(await readCode(api, 'ada@example.com', 'login'))
    }
    await compare('otp/verify', 'ada@example.com', codeSentToKnown, (api, email) =>
      verify(api, email, wrong, 'login'),
    )
  })
})

describe('pre-hijacking: whoever proves the address decides the credentials', () => {
  const VICTIM = { name: 'Victoria Owner', password: 'the owners passphrase' }
  const ATTACKER = { name: 'Mallory Squatter', password: 'the squatters passphrase' }

  const signUpAs = (api: ContractAgent, email: string, who: typeof VICTIM) =>
    api.post('/api/auth/signup').send({ ...who, email })
  const login = (api: ContractAgent, email: string, password: string) =>
    api.post('/api/auth/login').send({ email, password })
  /** The sign-up codes mailed to `email`: from /__mock's mailbox, or counted in the suite's mail capture. */
  const signUpMails = async (api: ContractAgent, email: string) => {
    if (api.noControl === undefined)
      return (await mockOf(api).mailbox(email)).filter((mail) => mail.purpose === 'signup').length
    if (!api.codes?.countCodes)
      notCheckable(
        `counts the mails the target sent, which only CONTRACT_SMTP_PORT's capture can: ${api.noControl}`,
      )
    return api.codes.countCodes(email, 'signup')
  }

  /** Neither unproven password opens the account; the owner sets one through recovery, and the name stays theirs. */
  async function expectOwnerRecovers(api: ContractAgent, email: string, name: string) {
    // Refused as `invalid_credentials` or `unverified`, as at any address (docs/security/codes.md). Never a session.
    const refused = await login(api, email, ATTACKER.password)
    expect([401, 403]).toContain(refused.status)
    expect(refused.body.token).toBeUndefined()
    expect(refused.headers['set-cookie']).toBeUndefined()
    await send(api, email, 'reset').expect(202)
    const reset = await verify(api, email, await readCode(api, email, 'reset'), 'reset').expect(200)
    await api
      .post('/api/auth/update_password')
      .send({ reset_token: reset.body.reset_token, password: 'set through recovery' })
      .expect(200)
    expect((await login(api, email, 'set through recovery').expect(200)).body.user.name).toBe(name)
    await login(api, email, ATTACKER.password).expect(401)
  }

  test('pre-hijack A: a sign-up during the victim’s cooldown mails nothing and does not give the victim’s code the attacker’s password or name', async () => {
    const { api } = await createTestServer()
    if (api.noControl !== undefined)
      notCheckable(
        `shows that no mail came, which only /__mock's mailbox tells (a capture cannot tell a mail not sent from one on its way): ${api.noControl}`,
      )
    const email = uniqueEmail('victim-a')
    const victim = await signUpAs(api, email, VICTIM).expect(202)
    const attacker = await signUpAs(api, email, ATTACKER).expect(202)
    expect(attacker.body.accepted).toBe(victim.body.accepted)
    expect(await signUpMails(api, email), 'no new mail within the cooldown').toBe(1)
    const res = await verify(api, email, await readCode(api, email), 'signup').expect(200)
    expect(res.body.user.name).not.toBe(ATTACKER.name)
    expect(res.body.user.name).toBe(email.split('@')[0])
    // Two sign-ups cannot be told apart, so neither password survives, the victim's included.
    await login(api, email, VICTIM.password).expect(401)
    await expectOwnerRecovers(api, email, email.split('@')[0]!)
  })

  test('pre-hijack A, reversed: the attacker signs up first and the victim within the cooldown; the code the victim finds proves no password', async () => {
    const { api } = await createTestServer()
    const email = uniqueEmail('victim-ar')
    await signUpAs(api, email, ATTACKER).expect(202)
    await signUpAs(api, email, VICTIM).expect(202)
    const res = await verify(api, email, await readCode(api, email), 'signup').expect(200)
    expect(res.body.user.name).not.toBe(ATTACKER.name)
    await expectOwnerRecovers(api, email, email.split('@')[0]!)
  })

  test(
    'pre-hijack B: a sign-up after the cooldown gets its own code, and whichever code the victim enters, the attacker’s password does not survive',
    async () => {
      // The two cases side by side: against a target without /__mock each waits out the cooldown in real time.
      const { api } = await createTestServer()
      await Promise.all(
        (['the newest code', 'their own code'] as const).map(async (enters) => {
          const email = uniqueEmail('victim-b')
          await signUpAs(api, email, VICTIM).expect(202)
          const own = await readCode(api, email)
          await waitPast(api, COOLDOWN_MS)
          await signUpAs(api, email, ATTACKER).expect(202)
          // Read once it came: a mail leaves the server behind the call that sent it.
          const newest = await readCode(api, email)
          expect(await signUpMails(api, email), 'the attacker’s code goes to the victim’s mailbox').toBe(2)
          const code = enters === 'the newest code' ? newest : own
          const res = await verify(api, email, code, 'signup')
          if (enters === 'their own code' && own !== newest) {
            // The newest code supersedes it, as every resend does; nothing was signed in.
            expect(res.body.error).toBe('invalid_code')
            return
          }
          expect(res.status, enters).toBe(200)
          expect(res.body.user.name).not.toBe(ATTACKER.name)
          await expectOwnerRecovers(api, email, email.split('@')[0]!)
        }),
      )
    },
    EXPIRY_TEST_TIMEOUT_MS,
  )

  test(
    'pre-hijack C: the owner of a pre-registered address uses external sign-in; the attacker’s password goes, and a later sign-up changes nothing',
    async () => {
      const server = await createTestServer({ publicOrigin: PUBLIC_ORIGIN })
      const { api } = server
      const email = uniqueEmail('victim-c')
      await signUpAs(api, email, ATTACKER).expect(202)
      const attackersCode = await readCode(api, email)
      await waitPast(api, COOLDOWN_MS)
      const state = 'state-0123456789abcdef'
      const res = await exchangeCallback(
        api,
        await signInAtIdp(api, { email, name: VICTIM.name, state, controlToken: server.controlToken }),
      ).expect(200)
      expect(res.body.user.name).toBe(VICTIM.name)
      await login(api, email, ATTACKER.password).expect(401)
      // The owner enters the code the attacker's sign-up mailed, or the attacker signs up again: nothing changes.
      expect((await verify(api, email, attackersCode, 'signup').expect(200)).body.user.name).toBe(VICTIM.name)
      await waitPast(api, COOLDOWN_MS)
      await signUpAs(api, email, ATTACKER).expect(202)
      await expectOwnerRecovers(api, email, VICTIM.name)
    },
    2 * COOLDOWN_MS + 30_000,
  ) // against a target without /__mock the two cooldowns are waited in real time

  test('pre-hijack D: the owner of a pre-registered address signs in with an e-mailed code; the attacker’s password and name go', async () => {
    const { api } = await createTestServer()
    const email = uniqueEmail('victim-d')
    await signUpAs(api, email, ATTACKER).expect(202)
    await send(api, email, 'login').expect(202)
    const res = await verify(api, email, await readCode(api, email, 'login'), 'login').expect(200)
    expect(res.body.user.name).toBe(email.split('@')[0])
    await login(api, email, ATTACKER.password).expect(401)
    await signUpAs(api, email, ATTACKER).expect(202)
    await expectOwnerRecovers(api, email, email.split('@')[0]!)
  })
})
