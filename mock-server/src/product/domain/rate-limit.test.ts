// The limiter: fixed windows on the injected clock, and a bounded number of windows that never empties all at once.
import { expect, test } from 'vitest'
import { RATE_LIMIT_CAPACITY } from '../../shared/constants.ts'
import { createRateLimiter } from './rate-limit.ts'

function createFakeClock(start = 1_000_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

const LIMIT = { max: 3, windowMs: 60_000 }

test('allows max hits per window, then says how many seconds to wait, and opens a new window after it', () => {
  const clock = createFakeClock()
  const limiter = createRateLimiter(clock, LIMIT)
  expect([1, 2, 3].map(() => limiter.hit('a'))).toEqual([0, 0, 0])
  expect(limiter.hit('a')).toBe(60)
  expect(limiter.hit('b')).toBe(0)
  clock.advance(59_000)
  expect(limiter.hit('a')).toBe(1)
  clock.advance(1_000)
  expect(limiter.hit('a')).toBe(0)
})

test(`filling the limiter with ${RATE_LIMIT_CAPACITY + 1} fresh keys does not reset an existing window`, () => {
  const clock = createFakeClock()
  const limiter = createRateLimiter(clock, LIMIT)
  for (let i = 0; i <= LIMIT.max; i += 1) limiter.hit('attacker')
  expect(limiter.hit('attacker')).toBeGreaterThan(0)
  for (let i = 0; i <= RATE_LIMIT_CAPACITY; i += 1) limiter.hit(`invented-${i}`)
  expect(limiter.size()).toBeLessThanOrEqual(RATE_LIMIT_CAPACITY)
  expect(limiter.hit('attacker'), 'still refused: its window survived the flood').toBeGreaterThan(0)
})

test('when full, expired windows go first, then the oldest open one; never all', () => {
  const clock = createFakeClock()
  const limiter = createRateLimiter(clock, LIMIT, 4)
  limiter.hit('old-1')
  limiter.hit('old-2')
  clock.advance(LIMIT.windowMs)
  limiter.hit('fresh-1')
  limiter.hit('fresh-1')
  limiter.hit('fresh-2')
  limiter.hit('fresh-3') // full: the two expired windows make room
  expect(limiter.size()).toBe(3)
  limiter.hit('fresh-4')
  limiter.hit('fresh-5') // full, nothing expired: the oldest open window (fresh-1) goes
  expect(limiter.size()).toBe(4)
  expect([limiter.hit('fresh-2'), limiter.hit('fresh-2'), limiter.hit('fresh-2')]).toEqual([0, 0, 60])
  expect(limiter.hit('fresh-1'), 'fresh-1 starts over: its 2 hits were dropped').toBe(0)
})

test('when every window is refusing, the oldest of them makes room: memory stays bounded', () => {
  const clock = createFakeClock()
  const limiter = createRateLimiter(clock, { max: 1, windowMs: 60_000 }, 2)
  for (const key of ['a', 'a', 'b', 'b']) limiter.hit(key)
  expect(limiter.hit('c')).toBe(0)
  expect(limiter.size()).toBe(2)
  expect(limiter.hit('b')).toBeGreaterThan(0)
})

test('clear empties it', () => {
  const limiter = createRateLimiter(createFakeClock(), LIMIT)
  limiter.hit('a')
  limiter.clear()
  expect(limiter.size()).toBe(0)
})

test('count reads the hits of a live window without counting one; forget drops the window', () => {
  const clock = createFakeClock()
  const limiter = createRateLimiter(clock, LIMIT)
  expect(limiter.count('a')).toBe(0)
  for (let i = 0; i < 5; i += 1) limiter.hit('a')
  expect(limiter.count('a')).toBe(5)
  expect(limiter.count('a')).toBe(5)
  clock.advance(LIMIT.windowMs)
  expect(limiter.count('a'), 'an ended window counts nothing').toBe(0)
  for (let i = 0; i < 5; i += 1) limiter.hit('b')
  limiter.forget('b')
  expect(limiter.count('b')).toBe(0)
  expect(limiter.hit('b')).toBe(0)
})
