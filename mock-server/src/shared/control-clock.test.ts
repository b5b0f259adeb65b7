import { expect, test } from 'vitest'
import { LATEST_DATE_MS } from './constants.ts'
import { createControlClock } from './control-clock.ts'

test('the clock runs on from where it was set', () => {
  let real = Date.parse('2026-01-01T00:00:00.000Z')
  const clock = createControlClock(() => real)
  clock.set(Date.parse('2030-06-01T12:00:00.000Z'))
  real += 90_000
  expect(new Date(clock.now()).toISOString()).toBe('2030-06-01T12:01:30.000Z')
})

test('it stops at the last millisecond of 9999, so every time it tells is a writable date-time', () => {
  let real = Date.parse('2026-01-01T00:00:00.000Z')
  const clock = createControlClock(() => real)
  clock.set(LATEST_DATE_MS - 100)
  real += 5_000
  expect(clock.now()).toBe(LATEST_DATE_MS)
  expect(new Date(clock.now()).toISOString()).toBe('9999-12-31T23:59:59.999Z')
  clock.advance(0)
  expect(clock.now()).toBe(LATEST_DATE_MS)
})
