// The attack suite, code side: guessing one-time codes, racing the right one, telling known addresses from
// unknown ones, and taking an address over before its owner proves it. Each test is one attack; the rules and
// their figures are in docs/security/codes.md (the list of attacks: docs/security/attack-suite.md).
import { afterEach, describe, expect, test } from 'vitest'
import type { Response } from 'supertest'
import { advanceClock, createTestServer, readCode, uniqueEmail } from '#contracts/fixtures.ts'
import { startLiveServer, type LiveServer } from '#contracts/live-server.ts'
import type { ContractAgent } from '#contracts/support/api.ts'

const COOLDOWN_MS = 30_000
const HOUR_MS = 60 * 60_000

const live: LiveServer[] = []
afterEach(async () => {
  await Promise.all(live.splice(0).map((server) => server.close()))
})

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

  test('T11 20 concurrent right answers: one wins', async () => {
    const server = await startLiveServer()
    live.push(server)
    const { api } = server
    await send(api, 'grace@example.com', 'login').expect(202)
    const code = await readCode(api, 'grace@example.com', 'login')
    const { store } = server.app.core.ops.domain
    const sessionsBefore = store.sessions.all().length
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => verify(api, 'grace@example.com', code, 'login')),
    )
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1)
    for (const answer of answers.filter((each) => each.status !== 200))
      expect(['invalid_code', 'too_many_attempts']).toContain(answer.body.error)
    expect(store.sessions.all().length, 'one session started').toBe(sessionsBefore + 1)
  })
})
