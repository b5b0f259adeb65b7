import { describe, expect, test } from 'vitest'
import { compareElapsed } from '#contracts/model/time.ts'

describe('compareElapsed', () => {
  test.each([
    ['surely within', { from: 0, to: 10 }, { from: 5_000, to: 5_020 }, 'within'],
    ['surely past', { from: 0, to: 10 }, { from: 20_000, to: 20_010 }, 'past'],
    [
      'too close to call: the answer came back across the edge',
      { from: 0, to: 10 },
      { from: 9_995, to: 10_005 },
      'unknown',
    ],
    ['the edge itself is left open', { from: 0, to: 0 }, { from: 10_000, to: 10_000 }, 'unknown'],
  ] as const)('%s', (_label, earlier, later, expected) => {
    expect(compareElapsed(earlier, later, 10_000)).toBe(expected)
  })
})
