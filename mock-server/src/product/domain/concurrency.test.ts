// Atomicity where HTTP rarely shows a race: the same code or refresh token submitted many times in one
// tick. The store's updates are asynchronous, so without the keyed lock several would win.
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import { consumeCode, issueCode } from './codes.ts'
import { createSession } from './sessions.ts'
import { issueRefreshToken, rotateRefreshToken } from './tokens.ts'
import { getUserByEmail } from './users.ts'

async function createDomain() {
  const core = createMockCore({ hasher: { memoryCost: 1024, timeCost: 1 } })
  await core.ready
  return core.ops.domain
}

test('of 8 simultaneous right answers to one code, exactly one succeeds', async () => {
  const domain = await createDomain()
  const code = (await issueCode(domain, 'grace@example.com', 'login', true))!
  const results = await Promise.all(
    Array.from({ length: 8 }, () => consumeCode(domain, 'grace@example.com', 'login', code)),
  )
  expect(results.filter((result) => result.ok)).toHaveLength(1)
})

test('simultaneous wrong answers are all counted: the fifth burns the code', async () => {
  const domain = await createDomain()
  const code = (await issueCode(domain, 'grace@example.com', 'login', true))!
  const wrong = code === '000000' ? '111111' : '000000'
  await Promise.all(Array.from({ length: 5 }, () => consumeCode(domain, 'grace@example.com', 'login', wrong)))
  expect(await consumeCode(domain, 'grace@example.com', 'login', code)).toEqual({
    ok: false,
    reason: 'too_many_attempts',
  })
})

test('8 simultaneous refreshes with one token rotate once and all get the same pair', async () => {
  const domain = await createDomain()
  const user = (await getUserByEmail(domain, 'ada@example.com'))!
  const { session } = await createSession(domain, user.id)
  const token = await issueRefreshToken(domain, session.id)
  const results = await Promise.all(Array.from({ length: 8 }, () => rotateRefreshToken(domain, token)))
  expect(results.every((result) => result.ok)).toBe(true)
  const pairs = new Set(results.map((result) => (result.ok ? result.pair.refresh_token : '')))
  expect(pairs.size).toBe(1)
  const { refreshTokens } = await domain.store.snapshot()
  expect(refreshTokens.filter((record) => record.sessionId === session.id)).toHaveLength(2)
})
