// The answer-lost scenario: the server does the work, then drops the connection.
// A retried refresh gets the kept pair within the grace window; after it, the family is revoked.
import type { Test } from 'supertest'
import { describe, expect, test } from 'vitest'
import {
  advanceClock,
  arm,
  bearer,
  PASSWORD,
  refresh,
  type SignedIn,
  signUp,
  useTestServer,
} from '#contracts/fixtures.ts'
import { findRefreshToken } from '#mock-server/product/domain/tokens.ts'

const GRACE_MS = 10_000

let lines: string[] = []
const server = useTestServer(() => {
  lines = []
  return { refreshGraceMs: GRACE_MS, log: (line) => lines.push(line) }
})

/** The call gets no answer at all: supertest sees the connection reset before any status line. */
async function expectNoAnswer(call: Test): Promise<void> {
  await expect(call).rejects.toMatchObject({ code: 'ECONNRESET', message: 'socket hang up' })
}

const lastJournalEntry = async (email: string) => (await server.mock.requests(email)).at(-1)

/** Signs up and loses the answer of the account's first refresh. */
async function loseRefreshAnswer(): Promise<SignedIn> {
  const account = await signUp(server.api)
  await arm(server.api, { name: 'answer-lost', email: account.email, operation: 'refreshToken' })
  await expectNoAnswer(refresh(server.api, account.refreshToken))
  return account
}

describe('a refresh whose answer is lost', () => {
  test('rotated on the server, and the journal shows the 200 it computed', async () => {
    const account = await loseRefreshAnswer()
    const old = await findRefreshToken(server.app.core.ops.domain, account.refreshToken)
    expect(old?.retiredAt).not.toBeNull()
    expect(old?.childId).not.toBeNull()
    expect(await lastJournalEntry(account.email)).toMatchObject({
      method: 'POST',
      path: '/api/refresh_token',
      operation: 'refreshToken',
      status: 200,
      email: account.email,
      scenario: 'answer-lost',
    })
  })

  test('the log says the answer was dropped, and holds no token', async () => {
    const account = await loseRefreshAnswer()
    const line = lines.find((entry) => entry.startsWith('POST /api/refresh_token'))
    expect(line).toMatch(/^POST \/api\/refresh_token 200 \(answer dropped\) \d+ms$/)
    expect(lines.join('\n')).not.toContain(account.refreshToken)
  })

  test('a retry with the old token inside the grace window gets the kept pair, the same each time', async () => {
    const account = await loseRefreshAnswer()
    const first = await refresh(server.api, account.refreshToken).expect(200)
    expect(first.body).toEqual({
      success: true,
      token: expect.any(String),
      refresh_token: expect.any(String),
    })
    expect(first.body.refresh_token).not.toBe(account.refreshToken)
    await advanceClock(server.api, GRACE_MS / 2)
    const second = await refresh(server.api, account.refreshToken).expect(200)
    expect(second.body).toEqual(first.body)
    await server.api.get('/api/me').set(bearer(first.body.token)).expect(200)
    const next = await refresh(server.api, first.body.refresh_token).expect(200)
    expect(next.body.refresh_token).not.toBe(first.body.refresh_token)
  })

  test('after the grace window the old token is reused: the family and the kept pair are refused', async () => {
    const account = await loseRefreshAnswer()
    const kept = await refresh(server.api, account.refreshToken).expect(200)
    await advanceClock(server.api, GRACE_MS + 1)
    expect((await refresh(server.api, account.refreshToken).expect(401)).body).toMatchObject({
      success: false,
      error: 'refresh_reused',
    })
    expect((await refresh(server.api, kept.body.refresh_token).expect(401)).body.error).toBe(
      'refresh_invalid',
    )
    const me = await server.api.get('/api/me').set(bearer(kept.body.token)).expect(401)
    expect(me.body.error).toBe('session_revoked')
  })

  test('is spent after one call, and other accounts never lose theirs', async () => {
    const account = await signUp(server.api)
    const other = await signUp(server.api)
    await arm(server.api, { name: 'answer-lost', email: account.email, operation: 'refreshToken' })
    await refresh(server.api, other.refreshToken).expect(200)
    await expectNoAnswer(refresh(server.api, account.refreshToken))
    const retried = await refresh(server.api, account.refreshToken).expect(200)
    await refresh(server.api, retried.body.refresh_token).expect(200)
  })
})

describe('other calls whose answer is lost', () => {
  test('getMe runs, answers nothing, and is journaled with its 200', async () => {
    const account = await signUp(server.api)
    await arm(server.api, { name: 'answer-lost', email: account.email, operation: 'getMe' })
    await expectNoAnswer(server.api.get('/api/me').set(bearer(account.token)))
    expect(await lastJournalEntry(account.email)).toMatchObject({
      operation: 'getMe',
      status: 200,
      scenario: 'answer-lost',
    })
    await server.api.get('/api/me').set(bearer(account.token)).expect(200)
  })

  test('login starts a session the client never hears of, and is journaled with its 200', async () => {
    const account = await signUp(server.api)
    const { store } = server.app.core.ops.domain
    const countSessions = async () =>
      (await store.snapshot()).sessions.filter((session) => session.userId === account.user.id).length
    const before = await countSessions()
    await arm(server.api, { name: 'answer-lost', email: account.email, operation: 'login' })
    await expectNoAnswer(
      server.api.post('/api/auth/login').send({ email: account.email, password: PASSWORD }),
    )
    expect(await countSessions()).toBe(before + 1)
    expect(await lastJournalEntry(account.email)).toMatchObject({
      operation: 'login',
      status: 200,
      scenario: 'answer-lost',
    })
  })

  test('a refused call is journaled with its refusal', async () => {
    const account = await signUp(server.api)
    await arm(server.api, { name: 'answer-lost', email: account.email, operation: 'login' })
    await expectNoAnswer(
      server.api.post('/api/auth/login').send({ email: account.email, password: 'not the password' }),
    )
    expect(await lastJournalEntry(account.email)).toMatchObject({ status: 401, scenario: 'answer-lost' })
  })
})
