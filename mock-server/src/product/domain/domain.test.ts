// Pure pieces of the domain: durations, the keyed lock, the grace box, constant-time comparison.
import { hkdfSync } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { parseDuration } from '#api/control-values.ts'
import {
  boxKey,
  createRandomPool,
  createRandomToken,
  openBox,
  safeEqual,
  sealBox,
} from '../../shared/crypto.ts'
import { createKeyedLock } from './locks.ts'
import { createLimiter, getPasswordProblem } from './passwords.ts'

describe('parseDuration', () => {
  test.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['15m', 900_000],
    ['24h', 86_400_000],
    ['2d', 172_800_000],
    ['1200', 1200],
  ] as const)('%s is %d ms', (text, ms) => expect(parseDuration(text)).toBe(ms))

  test.each(['', 'soon', '-5s', '5 weeks'])('%j is refused', (text) => {
    expect(() => parseDuration(text)).toThrow(/^Failed to read duration/)
  })
})

test('the keyed lock runs tasks of one key one at a time, and goes on after a failure', async () => {
  const lock = createKeyedLock()
  const order: string[] = []
  const slow = lock.run('k', async () => {
    await new Promise((resolve) => setTimeout(resolve, 20))
    order.push('first')
    throw new Error('boom')
  })
  const next = lock.run('k', async () => order.push('second'))
  await expect(slow).rejects.toThrow('boom')
  await next
  expect(order).toEqual(['first', 'second'])
})

test('the grace box key is HKDF-SHA256 of the token, byte for byte what hkdfSync derives', () => {
  for (const token of [createRandomToken(), createRandomToken(), 'short', 'ü'.repeat(100)]) {
    const expected = Buffer.from(hkdfSync('sha256', token, 'refresh-grace', 'grace-box', 32))
    expect(boxKey(token).equals(expected)).toBe(true)
  }
})

test('random tokens and ids from the pool are all distinct, full length, and never the wiped zeros', () => {
  // 1,000 tokens of 32 bytes and 1,000 ids of 9 bytes run through the 4 KiB pool about ten times.
  const random = createRandomPool()
  const drawn = Array.from({ length: 1000 }, () => [random.token(), random.id()]).flat()
  expect(new Set(drawn).size).toBe(drawn.length)
  for (const value of drawn) {
    const bytes = Buffer.from(value, 'base64url')
    expect([32, 9]).toContain(bytes.length)
    expect(bytes.some((byte) => byte !== 0)).toBe(true)
  }
  // More than the pool holds comes straight from the CSPRNG.
  expect(Buffer.from(random.token(5000), 'base64url')).toHaveLength(5000)
  expect(random.bytes(5000)).toHaveLength(5000)
})

test('two pools draw bytes of their own', () => {
  const [one, other] = [createRandomPool(), createRandomPool()]
  const drawn = Array.from({ length: 200 }, () => [one.token(), other.token(), one.id(), other.id()]).flat()
  expect(new Set(drawn).size).toBe(drawn.length)
  expect(createRandomToken()).not.toBe(createRandomToken())
})

test('a sealed box opens only with its token', () => {
  const token = createRandomToken()
  const box = sealBox(token, '{"pair":1}', createRandomPool())
  expect(openBox(token, box)).toBe('{"pair":1}')
  expect(openBox(createRandomToken(), box)).toBeNull()
  expect(openBox(token, 'garbage')).toBeNull()
})

test('safeEqual compares whole strings', () => {
  expect(safeEqual('abc', 'abc')).toBe(true)
  expect(safeEqual('abc', 'abd')).toBe(false)
  expect(safeEqual('abc', 'abcd')).toBe(false)
})

test('the password policy counts characters, not bytes', () => {
  expect(getPasswordProblem('ééééééé')).toMatch(/at least 8/)
  expect(getPasswordProblem('éééééééé')).toBeNull()
  expect(getPasswordProblem('ada@example.com', { email: 'ada@example.com' })).toMatch(/e-mail/)
})

test('the hash limiter runs at most `max` tasks at once, in order', async () => {
  const limit = createLimiter(2)
  let running = 0
  let peak = 0
  const finished: number[] = []
  await Promise.all(
    Array.from({ length: 6 }, (_, index) =>
      limit(async () => {
        running += 1
        peak = Math.max(peak, running)
        await new Promise((resolve) => setTimeout(resolve, 5))
        running -= 1
        finished.push(index)
      }),
    ),
  )
  expect(peak).toBe(2)
  expect(finished).toHaveLength(6)
})
