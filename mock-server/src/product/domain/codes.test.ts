// The cooldown between codes and the count of wrong codes, each at its exact edge (docs/security/codes.md).
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import type { MockOptions } from '../../compose/options.ts'
import { CODE_TTL_MS, RESET_TOKEN_TTL_MS } from '../../shared/constants.ts'
import {
  codeLockKey,
  consumeCode,
  consumeResetToken,
  getCooldownSeconds,
  getResetTokenUserId,
  issueCode,
  issueResetToken,
} from './codes.ts'
import { createKeyedLock } from './locks.ts'
import { purgeExpired } from './purge.ts'

async function createDomain(options: MockOptions = {}) {
  // Real time stands still here, so the clock moves only when the test moves it.
  const core = createMockCore({
    seed: false,
    codeCooldownMs: 30_000,
    hasher: { memoryCost: 1024, timeCost: 1 },
    realNow: () => 1_700_000_000_000,
    ...options,
  })
  await core.ready
  return { ctx: core.ops.domain, clock: core.clock }
}

test('a code starts a cooldown of whole seconds, rounded up, that ends exactly codeCooldownMs after it', async () => {
  const { ctx, clock } = await createDomain()
  expect(await getCooldownSeconds(ctx, 'ada@example.com', 'login')).toBe(0)
  await issueCode(ctx, 'Ada@Example.com', 'login', true)
  expect(await getCooldownSeconds(ctx, 'ada@example.com', 'login')).toBe(30)
  expect(await getCooldownSeconds(ctx, 'ada@example.com', 'reset'), 'another purpose').toBe(0)
  clock.advance(29_001)
  expect(await getCooldownSeconds(ctx, 'ada@example.com', 'login')).toBe(1)
  clock.advance(998)
  expect(await getCooldownSeconds(ctx, 'ada@example.com', 'login'), 'a millisecond left').toBe(1)
  clock.advance(1)
  expect(await getCooldownSeconds(ctx, 'ada@example.com', 'login')).toBe(0)
})

test('each wrong code leaves one attempt fewer; the fifth burns the code, and then not even the right one passes', async () => {
  const { ctx } = await createDomain()
  const code = (await issueCode(ctx, 'ada@example.com', 'login', true))!
  const wrong = code === '000000' ? '111111' : '000000'
  const answers = []
  for (let i = 0; i < 5; i += 1) answers.push(await consumeCode(ctx, 'ada@example.com', 'login', wrong))
  expect(
    answers.map((answer) =>
      'attemptsLeft' in answer ? answer.attemptsLeft : 'reason' in answer && answer.reason,
    ),
  ).toEqual([4, 3, 2, 1, 'too_many_attempts'])
  expect(await consumeCode(ctx, 'ada@example.com', 'login', code)).toEqual({
    ok: false,
    reason: 'too_many_attempts',
  })
})

test('an address without a code counts wrong codes alike, and a right code is used once', async () => {
  const { ctx } = await createDomain()
  const first = await consumeCode(ctx, 'nobody@example.com', 'login', '123456')
  expect(first).toEqual({ ok: false, reason: 'invalid_code', attemptsLeft: 4 })
  const code = (await issueCode(ctx, 'ada@example.com', 'login', true))!
  expect(await consumeCode(ctx, 'ADA@example.com', 'login', code)).toEqual({ ok: true, signup: null })
  expect(await consumeCode(ctx, 'ada@example.com', 'login', code)).toEqual({
    ok: false,
    reason: 'invalid_code',
    attemptsLeft: 4,
  })
})

test('a client not known to the account meets the ceiling of wrong codes per address; a known one neither meets nor feeds it', async () => {
  const { ctx } = await createDomain({ codeGuessLimit: { max: 2, windowMs: 60_000 } })
  const code = (await issueCode(ctx, 'ada@example.com', 'login', true))!
  const wrong = code === '000000' ? '111111' : '000000'
  expect(await consumeCode(ctx, 'ada@example.com', 'login', wrong, { knownClient: true })).toEqual({
    ok: false,
    reason: 'invalid_code',
    attemptsLeft: 4,
  })
  expect(await consumeCode(ctx, 'ada@example.com', 'login', wrong)).toEqual({
    ok: false,
    reason: 'invalid_code',
    attemptsLeft: 1,
  })
  expect(await consumeCode(ctx, 'ada@example.com', 'login', wrong)).toEqual({
    ok: false,
    reason: 'guess_limit',
    retryAfter: 60,
  })
})

test('of two wrong codes checked at once by two instances, the one that finds the code burned answers too_many_attempts', async () => {
  const { ctx } = await createDomain()
  // Another instance: the same store and counters, its own locks.
  const other = { ...ctx, locks: createKeyedLock() }
  const code = (await issueCode(ctx, 'ada@example.com', 'login', true))!
  const wrong = code === '000000' ? '111111' : '000000'
  for (let i = 0; i < 4; i += 1) await consumeCode(ctx, 'ada@example.com', 'login', wrong)
  const burned = { ok: false, reason: 'too_many_attempts' }
  expect(
    await Promise.all([
      consumeCode(ctx, 'ada@example.com', 'login', wrong),
      consumeCode(other, 'ada@example.com', 'login', wrong),
    ]),
  ).toEqual([burned, burned])
})

test('a code held up for one address and purpose holds up no other: each has a lock of its own', async () => {
  const { ctx } = await createDomain()
  // Ada's sign-in code held mid-check (a slow store, a flood of guesses): only her next sign-in code waits for it.
  let release = () => {}
  const held = ctx.locks.run(
    codeLockKey('ada@example.com', 'login'),
    () => new Promise<void>((r) => (release = r)),
  )
  const answered: string[] = []
  const issue = (email: string, purpose: 'login' | 'reset') =>
    issueCode(ctx, email, purpose, true).then(() => answered.push(`${email} ${purpose}`))
  const issues = [
    issue('grace@example.com', 'login'),
    issue('ada@example.com', 'reset'),
    issue('ada@example.com', 'login'),
  ]
  // Every step of an issue is a settled promise on the memory store: one turn of the event loop runs them all.
  await new Promise((resolve) => setImmediate(resolve))
  expect(answered).toEqual(['grace@example.com login', 'ada@example.com reset'])
  release()
  await Promise.all([held, ...issues])
  expect(answered).toEqual(['grace@example.com login', 'ada@example.com reset', 'ada@example.com login'])
})

test('a decoy goes at its expiry, as a code would, even with a cooldown as long as a code lives', async () => {
  const { ctx, clock } = await createDomain({ codeCooldownMs: CODE_TTL_MS })
  const wrong = () => consumeCode(ctx, 'nobody@example.com', 'login', '123456')
  expect(await wrong()).toEqual({ ok: false, reason: 'invalid_code', attemptsLeft: 4 })
  clock.advance(CODE_TTL_MS)
  expect(await purgeExpired(ctx)).toBe(1)
  expect(await wrong(), 'a new decoy').toEqual({ ok: false, reason: 'invalid_code', attemptsLeft: 4 })
})

test('a reset token names its account until it expires or is used', async () => {
  const { ctx, clock } = await createDomain()
  const token = await issueResetToken(ctx, 'user-1')
  clock.advance(RESET_TOKEN_TTL_MS - 1)
  expect(await getResetTokenUserId(ctx, token)).toBe('user-1')
  clock.advance(1)
  expect(await getResetTokenUserId(ctx, token), 'expired').toBeNull()
  const used = await issueResetToken(ctx, 'user-1')
  expect(await consumeResetToken(ctx, used)).toBe('user-1')
  expect(await getResetTokenUserId(ctx, used), 'used').toBeNull()
})
