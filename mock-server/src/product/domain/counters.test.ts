// asAsync: the memory counters' methods answer through promises, as the SQL counters' do; and the memory backend's policies.
import { expect, test } from 'vitest'
import { asAsync, memoryCounters } from './counters.ts'

test('asAsync makes each method answer through a promise and keeps every other value as it is', async () => {
  const wrapped = asAsync({ limit: 3, count: (n: number) => n + 1 })
  expect(wrapped.limit).toBe(3)
  const answer = wrapped.count(1)
  expect(answer).toBeInstanceOf(Promise)
  expect(await answer).toBe(2)
})

test('the memory pending passwords keep each sign-up for the policy’s keepMs and at most its max addresses', async () => {
  let now = 0
  const pending = memoryCounters.pendingPasswords({ now: () => now }, { max: 2, keepMs: 1_000 })
  await pending.record('a@example.test', 'a')
  now += 999
  expect(await pending.find('a@example.test'), 'kept for keepMs').toBe('a')
  await pending.record('b@example.test', 'b')
  await pending.record('c@example.test', 'c')
  expect(await pending.size(), 'at most max').toBe(2)
  expect(await pending.find('a@example.test'), 'the oldest went').toBeUndefined()
  now += 1_000
  expect(await pending.find('b@example.test'), 'gone after keepMs').toBeUndefined()
})
