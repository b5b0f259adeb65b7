import { describe, expect, test } from 'vitest'
import { getRemainingMs, pickShownToasts, shownKey } from './toast-queue.ts'

const t = (id: string, visible = true) => ({ id, visible, createdAt: 0, pauseDuration: 0 })

describe('pickShownToasts', () => {
  const rows = [
    { name: 'fewer than the limit: all', toasts: [t('b'), t('a')], shown: ['a', 'b'] },
    {
      name: 'more: the oldest four, oldest first',
      toasts: [t('f'), t('e'), t('d'), t('c'), t('b'), t('a')],
      shown: ['a', 'b', 'c', 'd'],
    },
    {
      name: 'one fading out no longer counts, and stays rendered',
      toasts: [t('f'), t('e'), t('d'), t('c'), t('b', false), t('a')],
      shown: ['a', 'b', 'c', 'd', 'e'],
    },
    { name: 'none', toasts: [], shown: [] },
  ] as const

  test.each(rows)('$name', ({ toasts, shown }) => {
    expect(pickShownToasts(toasts, 4).map((toast) => toast.id)).toEqual(shown)
  })
})

describe('getRemainingMs', () => {
  const rows = [
    { name: 'just shown', duration: 5000, at: 1000, pausedThen: 0, pausedNow: 0, now: 1000, left: 5000 },
    { name: 'half way', duration: 5000, at: 1000, pausedThen: 0, pausedNow: 0, now: 3500, left: 2500 },
    {
      name: 'pauses since count',
      duration: 5000,
      at: 1000,
      pausedThen: 0,
      pausedNow: 2000,
      now: 4000,
      left: 4000,
    },
    {
      name: 'pauses before it was shown do not',
      duration: 5000,
      at: 1000,
      pausedThen: 7000,
      pausedNow: 7000,
      now: 4000,
      left: 2000,
    },
    { name: 'overdue: zero', duration: 5000, at: 0, pausedThen: 0, pausedNow: 0, now: 9000, left: 0 },
    {
      name: 'no time-out',
      duration: Infinity,
      at: 0,
      pausedThen: 0,
      pausedNow: 0,
      now: 9000,
      left: Infinity,
    },
  ] as const

  test.each(rows)('$name', ({ duration, at, pausedThen, pausedNow, now, left }) => {
    expect(
      getRemainingMs({ duration, since: { at, pauseDuration: pausedThen }, pauseDuration: pausedNow, now }),
    ).toBe(left)
  })
})

test('shownKey: a toast updated in place (a promise settling) is shown anew', () => {
  expect(shownKey({ ...t('a'), createdAt: 1 })).not.toBe(shownKey({ ...t('a'), createdAt: 2 }))
})
