// The guess log: a sliding window of wrong codes per (address, purpose), bounded, purged by time.
import { expect, test } from 'vitest'
import { createGuessLog } from './guess-log.ts'

const HOUR = 3_600_000
const LIMIT = { max: 3, windowMs: HOUR }

test('counts wrong guesses per address and purpose; past the ceiling it says how long to wait', () => {
  const log = createGuessLog(LIMIT, 10)
  expect([0, 1_000, 2_000].map((now) => log.record('a@x.test', 'login', now))).toEqual([2, 1, 0])
  expect(log.wait('a@x.test', 'login', 2_000)).toBe(3_600 - 2)
  expect(log.wait('a@x.test', 'reset', 2_000), 'another purpose has its own budget').toBe(0)
  expect(log.wait('b@x.test', 'login', 2_000), 'another address has its own budget').toBe(0)
})

test.each([
  { label: 'just before the oldest guess leaves the window', at: HOUR - 1, wait: 1, remaining: 0 },
  { label: 'once the oldest guess has left it', at: HOUR, wait: 0, remaining: 1 },
  { label: 'once every guess has left it', at: HOUR + 2_000, wait: 0, remaining: 3 },
] as const)('the window slides: $label', ({ at, wait, remaining }) => {
  const log = createGuessLog(LIMIT, 10)
  for (const now of [0, 1_000, 2_000]) log.record('a@x.test', 'login', now)
  expect(log.wait('a@x.test', 'login', at)).toBe(wait)
  expect(log.remaining('a@x.test', 'login', at)).toBe(remaining)
})

test('a clock moved back gives no fresh budget', () => {
  const log = createGuessLog(LIMIT, 10)
  for (const now of [HOUR, HOUR, HOUR]) log.record('a@x.test', 'login', now)
  expect(log.wait('a@x.test', 'login', 0)).toBeGreaterThan(0)
})

test('past the capacity the address that guessed least recently goes; purge drops only spent logs', () => {
  const log = createGuessLog(LIMIT, 2)
  log.record('a@x.test', 'login', 0)
  log.record('b@x.test', 'login', 0)
  log.record('a@x.test', 'login', 1)
  log.record('c@x.test', 'login', 2)
  expect(Object.keys(log.snapshot()).sort()).toEqual(['login:a@x.test', 'login:c@x.test'])
  expect(log.purge(HOUR + 1)).toBe(1)
  expect(Object.keys(log.snapshot())).toEqual(['login:c@x.test'])
})

test('a log keeps only the last max guesses, so an address holds a bounded list', () => {
  const log = createGuessLog(LIMIT, 10)
  for (const now of [0, 1_000, 2_000, 3_000, 4_000]) log.record('a@x.test', 'login', now)
  expect(log.snapshot()).toEqual({ 'login:a@x.test': [2_000, 3_000, 4_000] })
})

test('purge keeps a log while any of its guesses is still in the window', () => {
  const log = createGuessLog(LIMIT, 10)
  log.record('a@x.test', 'login', 0)
  log.record('a@x.test', 'login', HOUR / 2)
  expect(log.purge(HOUR)).toBe(0)
  expect(log.remaining('a@x.test', 'login', HOUR)).toBe(2)
})

test('clear forgets every log', () => {
  const log = createGuessLog(LIMIT, 10)
  for (const now of [0, 1_000, 2_000]) log.record('a@x.test', 'login', now)
  log.clear()
  expect(log.size()).toBe(0)
  expect(log.wait('a@x.test', 'login', 2_000)).toBe(0)
})
