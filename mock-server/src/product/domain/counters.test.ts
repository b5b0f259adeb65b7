// asAsync: the memory counters' methods answer through promises, as the SQL counters' do.
import { expect, test } from 'vitest'
import { asAsync } from './counters.ts'

test('asAsync makes each method answer through a promise and keeps every other value as it is', async () => {
  const wrapped = asAsync({ limit: 3, count: (n: number) => n + 1 })
  expect(wrapped.limit).toBe(3)
  const answer = wrapped.count(1)
  expect(answer).toBeInstanceOf(Promise)
  expect(await answer).toBe(2)
})
