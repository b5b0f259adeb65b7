// The cooldown between codes and the count of wrong codes, each at its exact edge (docs/security/codes.md).
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import { consumeCode, getCooldownSeconds, issueCode } from './codes.ts'

async function createDomain() {
  // Real time stands still here, so the clock moves only when the test moves it.
  const core = createMockCore({
    seed: false,
    codeCooldownMs: 30_000,
    hasher: { memoryCost: 1024, timeCost: 1 },
    realNow: () => 1_700_000_000_000,
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
