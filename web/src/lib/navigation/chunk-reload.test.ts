import { describe, expect, test } from 'vitest'
import { createSessionValues } from '../../session/token-storage.ts'
import { createMemoryStorage } from '../../test/memory-storage.ts'
import { createChunkReload, decideReload } from './chunk-reload.ts'

const rows = [
  { name: 'first error on a path', guard: {}, path: '/help', now: 50_000, reload: true },
  { name: 'same path 9,999 ms later', guard: { '/help': 50_000 }, path: '/help', now: 59_999, reload: false },
  { name: 'same path 10,000 ms later', guard: { '/help': 50_000 }, path: '/help', now: 60_000, reload: true },
  { name: 'another path at once', guard: { '/help': 50_000 }, path: '/process', now: 50_001, reload: true },
  {
    name: 'a guard from the future (clock moved back)',
    guard: { '/help': 90_000 },
    path: '/help',
    now: 50_000,
    reload: true,
  },
] as const

test.each(rows)('$name -> reload: $reload', ({ guard, path, now, reload }) => {
  expect(decideReload(guard, path, now).reload).toBe(reload)
})

test('old entries are dropped from the stored guard', () => {
  expect(decideReload({ '/a': 1_000, '/b': 45_000 }, '/c', 50_000).guard).toEqual({
    '/b': 45_000,
    '/c': 50_000,
  })
})

describe('a chunk the user waits for fails', () => {
  function setup() {
    const storage = createMemoryStorage()
    let now = 100_000
    const reloads: number[] = []
    let online = true
    const failed = createChunkReload({
      guard: createSessionValues(storage).reloadGuard,
      now: () => now,
      getPath: () => '/help',
      reload: () => reloads.push(now),
      online: () => online,
    })
    return {
      storage,
      reloads,
      failed,
      setNow: (t: number) => (now = t),
      setOnline: (o: boolean) => (online = o),
    }
  }

  test('reloads once, keeps the guard in sessionStorage, and lets the second failure through', () => {
    const s = setup()
    expect(s.failed()).toBe(true)
    expect(s.reloads).toEqual([100_000])
    expect(s.storage.getItem('reloadGuard')).toBe('{"/help":100000}')
    s.setNow(109_999)
    expect(s.failed()).toBe(false) // the error page shows
    expect(s.reloads).toEqual([100_000])
    s.setNow(110_000)
    expect(s.failed()).toBe(true)
    expect(s.reloads).toEqual([100_000, 110_000])
  })

  test("offline, no reload (it would land on the browser's offline page): the error page shows, the guard untouched", () => {
    const s = setup()
    s.setOnline(false)
    expect(s.failed()).toBe(false)
    expect(s.reloads).toEqual([])
    expect(s.storage.getItem('reloadGuard')).toBeNull()
    s.setOnline(true) // back online, the next failure reloads as before
    expect(s.failed()).toBe(true)
    expect(s.reloads).toEqual([100_000])
  })
})
