import { describe, expect, test, vi } from 'vitest'
import { flush } from '../test/fake-clock.ts'
import { createBus, createLocks } from '../test/fake-tabs.ts'
import { createMemoryStorage, storageEntries } from '../test/memory-storage.ts'
import { createBackend, createHarness, SIGNED_IN_STORAGE } from '../test/session-harness.ts'
import { json } from '../test/recording-fetch.ts'
import { createLockKeeper, createSha256Hex, createTabChannel } from './cross-tab.ts'

const REFRESH = '/api/refresh_token'
const ADA = { id: 'u1', email: 'ada@example.com', name: 'Ada' }

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

describe('duplicated tabs (their sessionStorage copied)', () => {
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

describe("a log-out in one tab (the cookie session is the browser's)", () => {
  test('ends the session of every other tab quietly: tokens gone, timer stopped, no toast, no call', async () => {
    const { a, b, bus } = twoTabs(false)
    for (const tab of [a, b]) tab.store.start()
    await vi.waitFor(() => expect(refreshCalls(a, b)).toHaveLength(2)) // both start-up refreshes, one by one
    await flush()
    const callsBefore = b.net.calls.length
    a.store.logout()
    await flush()
    expect(bus.posted).toContainEqual({ type: 'logged-out' })
    expect(storageEntries(b.storage)).toEqual({})
    expect(b.store.getSnapshot()).toMatchObject({
      ready: true,
      isLoggedIn: false,
      hasTokens: false,
      signedOut: true,
    })
    expect(b.toasts).toEqual([])
    expect(b.navigations).toEqual([]) // the guard sends a signed-in page to /login
    expect(b.clock.pending()).toBe(0)
    expect(b.net.calls.length).toBe(callsBefore)
  })

  test("drops the other tab's refresh that was in flight: its answer writes nothing back", async () => {
    let answer: (() => void) | null = null
    const backend = createBackend()
    const bus = createBus()
    const a = createHarness({
      storage: createMemoryStorage(SIGNED_IN_STORAGE),
      backend,
      channel: bus.channel(),
    })
    backend.liveRefresh.add('refresh-b')
    const b = createHarness({
      storage: createMemoryStorage({ accessToken: 'access-b', refreshToken: 'refresh-b' }),
      backend,
      channel: bus.channel(),
      routes: {
        'POST /api/refresh_token': (_request, body) =>
          new Promise((resolve) => (answer = () => resolve(backend.refresh(JSON.parse(body).refresh_token)))),
      },
    })
    b.store.start() // its start-up refresh hangs
    await flush()
    a.store.logout()
    await flush()
    expect(storageEntries(b.storage)).toEqual({})
    answer!()
    await flush()
    expect(b.net.callsTo(REFRESH)).toHaveLength(1)
    expect(storageEntries(b.storage)).toEqual({})
    expect(b.toasts).toEqual([])
    expect(b.store.getSnapshot()).toMatchObject({ isLoggedIn: false, hasTokens: false })
  })

  test('a tab that was signed out already stays as it is (its sign-in in flight is not dropped)', async () => {
    const bus = createBus()
    const a = createHarness({ storage: createMemoryStorage(SIGNED_IN_STORAGE), channel: bus.channel() })
    const b = createHarness({
      channel: bus.channel(),
      routes: { 'GET /api/_auth/session': () => json(200, {}) },
    })
    b.store.start()
    await flush()
    const generation = b.store.getGeneration()
    a.store.logout()
    await flush()
    expect(b.store.getGeneration()).toBe(generation)
    b.store.signIn(
      { user: ADA, token: 'access-n', refresh_token: 'refresh-n', service_token: 's' },
      { generation, redirect: '/' },
    )
    expect(storageEntries(b.storage)).toMatchObject({ accessToken: 'access-n', refreshToken: 'refresh-n' })
    expect(b.navigations).toEqual(['/'])
  })
})

describe('the tab channel', () => {
  const messages = [
    {
      name: 'a rotation',
      data: { type: 'token-rotated', retired: 'hash(rX)', accessToken: 'a1', refreshToken: 'r1' },
      heard: [
        {
          tokens: { accessToken: 'a1', refreshToken: 'r1' },
          retired: 'hash(rX)',
          held: { token: 'r0', digest: 'hash(r0)' },
        },
      ],
      logouts: 0,
    },
    { name: 'a log-out', data: { type: 'logged-out' }, heard: [], logouts: 1 },
    {
      name: 'another type',
      data: { type: 'hello', retired: 'hash(r0)', accessToken: 'a1', refreshToken: 'r1' },
      heard: [],
      logouts: 0,
    },
    {
      name: 'a rotation without its refresh token',
      data: { type: 'token-rotated', retired: 'hash(r0)', accessToken: 'a1' },
      heard: [],
      logouts: 0,
    },
    {
      name: 'a rotation without its retired hash',
      data: { type: 'token-rotated', accessToken: 'a1', refreshToken: 'r1' },
      heard: [],
      logouts: 0,
    },
    {
      name: 'a rotation without its access token',
      data: { type: 'token-rotated', retired: 'hash(r0)', refreshToken: 'r1' },
      heard: [],
      logouts: 0,
    },
    { name: 'not an object', data: 'token-rotated', heard: [], logouts: 0 },
    { name: 'null', data: null, heard: [], logouts: 0 },
  ] as const

  test.each(messages)('$name', async ({ data, heard, logouts }) => {
    const bus = createBus()
    const reported: unknown[] = []
    let loggedOut = 0
    createTabChannel({
      channel: bus.channel(),
      hash: async (text) => `hash(${text})`,
      getRefreshToken: () => 'r0',
      onRotation: (rotation) => reported.push(rotation),
      onLogout: () => (loggedOut += 1),
    })
    bus.channel().postMessage(data)
    await flush()
    expect(reported).toEqual(heard)
    expect(loggedOut).toBe(logouts)
  })

  test('a tab holding no refresh token does not even hash', async () => {
    const bus = createBus()
    const hashed: string[] = []
    const reported: unknown[] = []
    createTabChannel({
      channel: bus.channel(),
      hash: async (text) => (hashed.push(text), `hash(${text})`),
      getRefreshToken: () => null,
      onRotation: (rotation) => reported.push(rotation),
      onLogout: () => {},
    })
    bus
      .channel()
      .postMessage({ type: 'token-rotated', retired: 'hash(r0)', accessToken: 'a1', refreshToken: 'r1' })
    await flush()
    expect([hashed, reported]).toEqual([[], []])
  })

  test('after dispose nothing is reported', async () => {
    const bus = createBus()
    let loggedOut = 0
    const tabs = createTabChannel({
      channel: bus.channel(),
      hash: async (text) => text,
      getRefreshToken: () => 'r0',
      onRotation: () => {},
      onLogout: () => (loggedOut += 1),
    })
    tabs.dispose()
    bus.channel().postMessage({ type: 'logged-out' })
    await flush()
    expect(loggedOut).toBe(0)
  })

  test('without hashing (no crypto.subtle) a refresh still succeeds, unannounced', async () => {
    const bus = createBus()
    const storage = createMemoryStorage(SIGNED_IN_STORAGE)
    const h = createHarness({ storage, channel: bus.channel() })
    const failing = createTabChannel({
      channel: bus.channel(),
      hash: () => Promise.reject(new TypeError('crypto.subtle is undefined')),
      getRefreshToken: () => 'r0',
      onRotation: () => {},
      onLogout: () => {},
    })
    await expect(
      failing.announceRotation('r0', { accessToken: 'a1', refreshToken: 'r1' }),
    ).resolves.toBeUndefined()
    expect(bus.posted).toEqual([])
    await expect(h.store.refresh()).resolves.toBe('access-1')
  })

  test('a closed channel: announcing does not throw', async () => {
    const closed = {
      postMessage: () => {
        throw new DOMException('closed', 'InvalidStateError')
      },
      addEventListener: () => {},
      removeEventListener: () => {},
    }
    const tabs = createTabChannel({
      channel: closed,
      hash: async (text) => text,
      getRefreshToken: () => null,
      onRotation: () => {},
      onLogout: () => {},
    })
    expect(() => tabs.announceLogout()).not.toThrow()
    await expect(
      tabs.announceRotation('r0', { accessToken: 'a', refreshToken: 'r' }),
    ).resolves.toBeUndefined()
  })

  test('without a channel nothing is hashed or posted, and nothing throws', async () => {
    const hashed: string[] = []
    const tabs = createTabChannel({
      channel: null,
      hash: async (text) => (hashed.push(text), text),
      getRefreshToken: () => 'r0',
      onRotation: () => {},
      onLogout: () => {},
    })
    await expect(
      tabs.announceRotation('r0', { accessToken: 'a', refreshToken: 'r' }),
    ).resolves.toBeUndefined()
    expect(() => tabs.announceLogout()).not.toThrow()
    expect(() => tabs.dispose()).not.toThrow()
    expect(hashed).toEqual([])
  })

  test('a channel failing for another reason than being closed is a bug: it is not swallowed', () => {
    const broken = {
      postMessage: () => {
        throw new TypeError('not a channel')
      },
      addEventListener: () => {},
      removeEventListener: () => {},
    }
    const tabs = createTabChannel({
      channel: broken,
      hash: async (text) => text,
      getRefreshToken: () => null,
      onRotation: () => {},
      onLogout: () => {},
    })
    expect(() => tabs.announceLogout()).toThrow('not a channel')
  })

  test('SHA-256 hex through crypto.subtle', async () => {
    const sha256 = createSha256Hex(globalThis.crypto.subtle)
    await expect(sha256('abc')).resolves.toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    )
  })
})

describe('the lock keeper', () => {
  test('holds the lock per key until that key is released; release-all lets every key go', async () => {
    const locks = createLocks()
    const keeper = createLockKeeper(locks, 'L')
    const granted: number[] = []
    keeper.acquire(1, () => granted.push(1))
    keeper.acquire(2, () => granted.push(2))
    await flush()
    expect(granted).toEqual([1])
    keeper.release(1)
    await flush()
    expect(granted).toEqual([1, 2])
    let third = false
    void locks.request('L', async () => void (third = true))
    await flush()
    expect(third, 'still held by key 2').toBe(false)
    keeper.releaseAll()
    await flush()
    expect(third).toBe(true)
  })

  test('releasing a key that holds nothing does nothing', () => {
    const keeper = createLockKeeper(null, 'L')
    expect(() => keeper.release(42)).not.toThrow()
  })

  test('without Web Locks the task is granted at once', () => {
    const keeper = createLockKeeper(null, 'L')
    const granted: number[] = []
    keeper.acquire(1, () => granted.push(1))
    keeper.acquire(2, () => granted.push(2))
    expect(granted).toEqual([1, 2])
  })
})
