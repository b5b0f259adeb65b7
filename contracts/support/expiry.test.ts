// waitPast's real wait, the branch a target without /__mock takes (the unit suite's target runs leave out the checks
// that would reach it with a 30 s cooldown: target-run.test.ts).
import { expect, test } from 'vitest'
import type { ContractAgent } from '#contracts/support/api.ts'
import { waitPast } from '#contracts/support/expiry.ts'

test('without /__mock, waitPast waits the time out in real time, past it by a second, never short of it', async () => {
  const api = { noControl: 'the target does not offer /__mock (GET /__mock/clock: 404)' } as ContractAgent
  const start = performance.now()
  await waitPast(api, 500)
  // A timer may fire a millisecond early by its rounding; a busy machine only makes the wait longer.
  expect(performance.now() - start).toBeGreaterThanOrEqual(1_498)
})
