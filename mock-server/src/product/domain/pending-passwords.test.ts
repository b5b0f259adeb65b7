import { expect, test } from 'vitest'
import { createPendingPasswords } from './pending-passwords.ts'

function setUp(max = 3, keepMs = 1_000) {
  let now = 0
  const pending = createPendingPasswords({ now: () => now }, { max, keepMs })
  return { pending, advance: (ms: number) => void (now += ms) }
}

test('the newest sign-up of an address is kept for keepMs, then neither found nor kept past a purge', () => {
  const { pending, advance } = setUp()
  pending.record('a@example.test', 'first')
  pending.record('a@example.test', 'second')
  expect(pending.find('a@example.test')).toBe('second')
  advance(999)
  expect(pending.find('a@example.test')).toBe('second')
  advance(1)
  expect(pending.find('a@example.test')).toBeUndefined()
  expect(pending.purge()).toBe(1)
  expect(pending.size()).toBe(0)
})

test('past the cap the address whose sign-up is oldest goes; a new sign-up renews an address', () => {
  const { pending } = setUp(2)
  pending.record('a@example.test', 'a')
  pending.record('b@example.test', 'b')
  pending.record('a@example.test', 'a2') // a is now the newest
  pending.record('c@example.test', 'c')
  expect([
    pending.find('a@example.test'),
    pending.find('b@example.test'),
    pending.find('c@example.test'),
  ]).toEqual(['a2', undefined, 'c'])
  expect(pending.size()).toBe(2)
})

test('re-recording an address below the cap moves it to the newest place: at the cap the oldest-recorded goes', () => {
  const { pending } = setUp(3)
  pending.record('a@example.test', 'a')
  pending.record('b@example.test', 'b')
  pending.record('a@example.test', 'a2') // no eviction yet, but a is now the newest
  pending.record('c@example.test', 'c')
  pending.record('d@example.test', 'd')
  expect([
    pending.find('a@example.test'),
    pending.find('b@example.test'),
    pending.find('c@example.test'),
    pending.find('d@example.test'),
  ]).toEqual(['a2', undefined, 'c', 'd'])
})

test('a purge drops only the expired; forget drops one address, clear every one', () => {
  const { pending, advance } = setUp()
  pending.record('old@example.test', 'old')
  advance(500)
  pending.record('new@example.test', 'new')
  pending.record('other@example.test', 'other')
  advance(500)
  expect(pending.purge()).toBe(1)
  expect([pending.size(), pending.find('new@example.test')]).toEqual([2, 'new'])
  pending.forget('new@example.test')
  expect([pending.size(), pending.find('new@example.test'), pending.find('other@example.test')]).toEqual([
    1,
    undefined,
    'other',
  ])
  pending.clear()
  expect([pending.size(), pending.find('other@example.test')]).toEqual([0, undefined])
})
