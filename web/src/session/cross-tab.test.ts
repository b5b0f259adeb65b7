import { describe, expect, test } from 'vitest'
import { flush } from '../test/fake-clock.ts'
import { createBus, createLocks } from '../test/fake-tabs.ts'
import { createMemoryStorage, storageEntries } from '../test/memory-storage.ts'
import { createBackend, createHarness, SIGNED_IN_STORAGE } from '../test/session-harness.ts'
import { createRotationSync, createSha256Hex } from './cross-tab.ts'

const REFRESH = '/api/refresh_token'

/** Two tabs against one server; `shared` says whether the second is a duplicate (same sessionStorage copy). */
function twoTabs(shared: boolean) {
  const backend = createBackend()
  const bus = createBus()
  const locks = createLocks()
  const tab = (stored: Record<string, string>) =>
    createHarness({ storage: createMemoryStorage(stored), backend, channel: bus.channel(), locks })
  const a = tab(SIGNED_IN_STORAGE)
  if (!shared) backend.liveRefresh.add('refresh-other')
  const b = tab(shared ? SIGNED_IN_STORAGE : { accessToken: 'access-other', refreshToken: 'refresh-other' })
  return { a, b, bus, locks, backend }
}

const refreshCalls = (...tabs: ReturnType<typeof createHarness>[]) =>
  tabs.flatMap((t) => t.net.callsTo(REFRESH).map((c) => c.body))

describe('duplicated tabs (issue 3)', () => {
  test('a duplicate adopts the rotated pair and its next refresh is not a reuse', async () => {
    const { a, b, backend } = twoTabs(true)
    await a.store.refresh()
    await flush()
    expect(storageEntries(b.storage)).toEqual({
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      serviceToken: 'service-0',
    })
    await expect(b.store.refresh()).resolves.toBe('access-2')
    expect(refreshCalls(a, b)).toEqual(['{"refresh_token":"refresh-0"}', '{"refresh_token":"refresh-1"}'])
    expect(backend.rotations).toBe(2)
    expect([...a.toasts, ...b.toasts]).toEqual([])
  })

  test('without coordination the second tab would reuse the retired token and be signed out', async () => {
    const backend = createBackend()
    const a = createHarness({ storage: createMemoryStorage(SIGNED_IN_STORAGE), backend })
    const b = createHarness({ storage: createMemoryStorage(SIGNED_IN_STORAGE), backend })
    await a.store.refresh()
    await expect(b.store.refresh()).rejects.toThrow('Token refresh failed')
    expect(b.toasts).toEqual([{ kind: 'error', message: 'Session expired. Please login again.' }])
  })

  test('two duplicates refreshing at once: the lock lets one refresh, the other adopts', async () => {
    const { a, b, locks } = twoTabs(true)
    const tokens = await Promise.all([a.store.refresh(), b.store.refresh()])
    expect(tokens).toEqual(['access-1', 'access-1'])
    expect(refreshCalls(a, b)).toEqual(['{"refresh_token":"refresh-0"}'])
    expect(locks.granted).toEqual(['auth-shell:refresh', 'auth-shell:refresh'])
    expect(storageEntries(b.storage)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' })
    expect([...a.toasts, ...b.toasts]).toEqual([])
  })

  test('the announcement names the retired token by its hash only', async () => {
    const { a, bus } = twoTabs(true)
    await a.store.refresh()
    expect(bus.posted).toEqual([
      {
        type: 'token-rotated',
        retired: 'hash(refresh-0)',
        accessToken: 'access-1',
        refreshToken: 'refresh-1',
      },
    ])
    expect(JSON.stringify(bus.posted)).not.toContain('"refresh-0"')
  })

  test('tabs signed in separately ignore each other', async () => {
    const { a, b } = twoTabs(false)
    await a.store.refresh()
    await flush()
    expect(storageEntries(b.storage)).toEqual({ accessToken: 'access-other', refreshToken: 'refresh-other' })
    await expect(b.store.refresh()).resolves.toBe('access-2')
    expect(refreshCalls(b)).toEqual(['{"refresh_token":"refresh-other"}'])
  })
})

describe('rotation sync', () => {
  const messages = [
    {
      name: 'matching hash',
      data: { type: 'token-rotated', retired: 'hash(r0)', accessToken: 'a1', refreshToken: 'r1' },
      adopted: true,
    },
    {
      name: 'other hash',
      data: { type: 'token-rotated', retired: 'hash(rX)', accessToken: 'a1', refreshToken: 'r1' },
      adopted: false,
    },
    {
      name: 'other type',
      data: { type: 'hello', retired: 'hash(r0)', accessToken: 'a1', refreshToken: 'r1' },
      adopted: false,
    },
    {
      name: 'missing token',
      data: { type: 'token-rotated', retired: 'hash(r0)', accessToken: 'a1' },
      adopted: false,
    },
    { name: 'not an object', data: 'token-rotated', adopted: false },
  ] as const

  test.each(messages)('$name -> adopted: $adopted', async ({ data, adopted }) => {
    const bus = createBus()
    const adoptions: unknown[] = []
    createRotationSync({
      channel: bus.channel(),
      hash: async (text) => `hash(${text})`,
      getRefreshToken: () => 'r0',
      onAdopt: (tokens) => adoptions.push(tokens),
    })
    bus.channel().postMessage(data)
    await flush()
    expect(adoptions).toEqual(adopted ? [{ accessToken: 'a1', refreshToken: 'r1' }] : [])
  })

  test('without hashing (no crypto.subtle) a refresh still succeeds, unannounced', async () => {
    const bus = createBus()
    const storage = createMemoryStorage(SIGNED_IN_STORAGE)
    const h = createHarness({ storage, channel: bus.channel() })
    const failing = createRotationSync({
      channel: bus.channel(),
      hash: () => Promise.reject(new TypeError('crypto.subtle is undefined')),
      getRefreshToken: () => 'r0',
      onAdopt: () => {},
    })
    await expect(failing.announce('r0', { accessToken: 'a1', refreshToken: 'r1' })).resolves.toBeUndefined()
    await expect(h.store.refresh()).resolves.toBe('access-1')
  })

  test('SHA-256 hex through crypto.subtle', async () => {
    const sha256 = createSha256Hex(globalThis.crypto.subtle)
    await expect(sha256('abc')).resolves.toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })
})
