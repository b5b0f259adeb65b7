import { describe, expect, test, vi } from 'vitest'
import { flush } from '../test/fake-clock.ts'
import { storageEntries } from '../test/memory-storage.ts'
import { json } from '../test/recording-fetch.ts'
import { createBus, createLocks } from '../test/fake-tabs.ts'
import { createMemoryStorage } from '../test/memory-storage.ts'
import { BASE_URL, createHarness, SIGNED_IN_STORAGE } from '../test/session-harness.ts'
import { createSessionCalls } from './session-calls.ts'

const REFRESH = '/api/refresh_token'
const SESSION = '/api/_auth/session'

describe('session fetch (docs/behaviour.md: Session, Calls)', () => {
  test('GET /api/_auth/session accepting JSON; ready after the first fetch; logged in = a user', async () => {
    const h = createHarness({
      routes: {
        [`GET ${SESSION}`]: () => json(200, { user: { id: 'u1', email: 'ada@example.com', name: 'Ada' } }),
      },
    })
    expect(h.store.getSnapshot()).toMatchObject({ ready: false, isLoggedIn: false })
    h.store.start()
    await flush()
    expect(h.net.callsTo(SESSION)).toHaveLength(1)
    expect(h.store.getSnapshot()).toMatchObject({
      ready: true,
      isLoggedIn: true,
      user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
    })
  })

  test('sends Accept: application/json', async () => {
    let accept: string | null = null
    const h = createHarness({
      routes: {
        [`GET ${SESSION}`]: (request) => {
          accept = request.headers.get('Accept')
          return json(200, {})
        },
      },
    })
    h.store.start()
    await flush()
    expect(accept).toBe('application/json')
  })

  test('reads the legacy field names', async () => {
    const h = createHarness({
      routes: {
        [`GET ${SESSION}`]: () => json(200, { user: { userId: 'u9', emailId: 'x@example.com', name: 'X' } }),
      },
    })
    h.store.start()
    await flush()
    expect(h.store.getSnapshot().user).toEqual({ id: 'u9', email: 'x@example.com', name: 'X' })
  })

  const failures = [
    { name: '503 (not retried)', answer: () => json(503, { error: 'session_unavailable' }) },
    { name: '500', answer: () => json(500, {}) },
    { name: 'not JSON', answer: () => new Response('<html>', { status: 200 }) },
    {
      name: 'network error',
      answer: () => {
        throw new TypeError('Failed to fetch')
      },
    },
  ] as const

  test.each(failures)(
    'a failed fetch ($name) is an empty session, ready, fetched once',
    async ({ answer }) => {
      const h = createHarness({ routes: { [`GET ${SESSION}`]: answer } })
      h.store.start()
      await flush()
      expect(h.net.callsTo(SESSION)).toHaveLength(1)
      expect(h.store.getSnapshot()).toMatchObject({ ready: true, isLoggedIn: false, user: null })
    },
  )
})

describe('periodic refresh (docs/behaviour.md: Session, Constants)', () => {
  test('without tokens at start-up: no refresh and no timer', async () => {
    const h = createHarness()
    h.store.start()
    await h.clock.advance(900_000)
    expect(h.net.callsTo(REFRESH)).toHaveLength(0)
    expect(h.clock.pending()).toBe(0)
  })

  test('with tokens: once at start-up, then every 300 s', async () => {
    const h = createHarness({ stored: SIGNED_IN_STORAGE })
    h.store.start()
    await flush()
    expect(h.net.callsTo(REFRESH)).toHaveLength(1)
    expect(h.net.callsTo(REFRESH)[0]?.body).toBe('{"refresh_token":"refresh-0"}')
    await h.clock.advance(299_999)
    expect(h.net.callsTo(REFRESH)).toHaveLength(1)
    await h.clock.advance(1)
    expect(h.net.callsTo(REFRESH)).toHaveLength(2)
    expect(h.net.callsTo(REFRESH)[1]?.body).toBe('{"refresh_token":"refresh-1"}')
    await h.clock.advance(300_000)
    expect(h.net.callsTo(REFRESH)).toHaveLength(3)
    expect(storageEntries(h.storage)).toEqual({
      accessToken: 'access-3',
      refreshToken: 'refresh-3',
      serviceToken: 'service-0',
    })
  })

  test('a sign-in stores the tokens under their keys and starts the timer', async () => {
    const h = createHarness()
    h.store.start()
    await flush()
    h.backend.liveRefresh.add('refresh-s')
    h.store.signIn(
      {
        user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
        token: 'access-s',
        refresh_token: 'refresh-s',
        service_token: 'service-s',
      },
      { generation: h.store.getGeneration(), redirect: '/process' },
    )
    expect(h.navigations).toEqual(['/process'])
    expect(storageEntries(h.storage)).toEqual({
      accessToken: 'access-s',
      refreshToken: 'refresh-s',
      serviceToken: 'service-s',
    })
    expect(h.store.getSnapshot()).toMatchObject({ isLoggedIn: true, user: { name: 'Ada' } })
    expect(h.net.callsTo(REFRESH)).toHaveLength(0)
    await h.clock.advance(300_000)
    expect(h.net.callsTo(REFRESH).map((c) => c.body)).toEqual(['{"refresh_token":"refresh-s"}'])
  })

  test('the timer stops once the tokens are gone', async () => {
    const h = createHarness({ stored: SIGNED_IN_STORAGE })
    h.store.start()
    await flush()
    h.storage.removeItem('refreshToken')
    await h.clock.advance(300_000)
    expect(h.net.callsTo(REFRESH)).toHaveLength(1)
    expect(h.clock.pending()).toBe(0)
    await h.clock.advance(900_000)
    expect(h.net.callsTo(REFRESH)).toHaveLength(1)
  })
})

describe('refresh (docs/behaviour.md: Session, Refresh)', () => {
  test('without a refresh token: logs exactly the line and sends nothing', async () => {
    const h = createHarness({ stored: { accessToken: 'access-0' } })
    await expect(h.store.refresh()).rejects.toThrow('Token refresh failed')
    expect(h.logs).toEqual(['No refresh token available'])
    expect(h.net.calls).toHaveLength(0)
  })

  test('concurrent callers share one refresh', async () => {
    const h = createHarness({ stored: SIGNED_IN_STORAGE })
    const tokens = await Promise.all(Array.from({ length: 10 }, () => h.store.refresh()))
    expect(new Set(tokens)).toEqual(new Set(['access-1']))
    expect(h.net.callsTo(REFRESH)).toHaveLength(1)
  })

  test('a successful refresh keeps the session and the timer', async () => {
    const h = createHarness({ stored: SIGNED_IN_STORAGE })
    h.store.start()
    await flush()
    expect(h.toasts).toEqual([])
    expect(h.navigations).toEqual([])
    expect(h.clock.pending()).toBe(1)
  })

  const failures = [
    {
      name: '401 refresh_reused',
      answer: () => json(401, { success: false, error: 'refresh_reused', message: 'x' }),
    },
    { name: 'success: false', answer: () => json(200, { success: false, message: 'nope' }) },
    { name: 'missing refresh_token', answer: () => json(200, { success: true, token: 'access-9' }) },
    { name: 'missing token', answer: () => json(200, { success: true, refresh_token: 'refresh-9' }) },
    { name: 'success missing', answer: () => json(200, { token: 'access-9', refresh_token: 'refresh-9' }) },
    { name: '503', answer: () => json(503, {}) },
    { name: 'not JSON', answer: () => new Response('oops', { status: 200 }) },
    {
      name: 'network error',
      answer: () => {
        throw new TypeError('Failed to fetch')
      },
    },
  ] as const

  test.each(failures)('fails with "Token refresh failed" on $name, and signs out', async ({ answer }) => {
    // h: the start-up refresh (nobody awaits it); again: a direct call, whose error is observable
    const h = createHarness({ stored: SIGNED_IN_STORAGE, routes: { [`POST ${REFRESH}`]: answer } })
    h.store.start()
    await flush()
    const again = createHarness({ stored: SIGNED_IN_STORAGE, routes: { [`POST ${REFRESH}`]: answer } })
    await expect(again.store.refresh()).rejects.toThrow(/^Token refresh failed$/)
    for (const run of [h, again]) {
      expect(run.net.callsTo(REFRESH)).toHaveLength(1)
      expect(run.toasts).toEqual([{ kind: 'error', message: 'Session expired. Please login again.' }])
      expect(run.navigations).toEqual(['/login'])
      expect(storageEntries(run.storage)).toEqual({})
    }
    expect(h.clock.pending()).toBe(0)
    await h.clock.advance(900_000)
    expect(h.net.callsTo(REFRESH)).toHaveLength(1)
  })
})

describe('logout (docs/behaviour.md: Session, Calls)', () => {
  test('DELETE /api/_auth/session, then the local session and tokens are cleared and the timer stops', async () => {
    const h = createHarness({
      stored: SIGNED_IN_STORAGE,
      routes: {
        [`GET ${SESSION}`]: () => json(200, { user: { id: 'u1', email: 'a@example.com', name: 'A' } }),
      },
    })
    h.store.start()
    await flush()
    h.store.logout()
    await flush()
    const deletes = h.net.callsTo(SESSION, 'DELETE')
    expect(deletes).toHaveLength(1)
    expect(deletes[0]?.authorization).toBe('Bearer access-1')
    expect(storageEntries(h.storage)).toEqual({})
    expect(h.store.getSnapshot()).toMatchObject({ isLoggedIn: false, user: null })
    expect(h.navigations).toEqual(['/login'])
    expect(h.toasts).toEqual([])
    expect(h.clock.pending()).toBe(0)
  })

  test('the local session is cleared even when the server call fails', async () => {
    const h = createHarness({
      stored: SIGNED_IN_STORAGE,
      routes: {
        [`DELETE ${SESSION}`]: () => {
          throw new TypeError('Failed to fetch')
        },
      },
    })
    h.store.logout()
    await flush()
    expect(storageEntries(h.storage)).toEqual({})
    expect(h.navigations).toEqual(['/login'])
  })
})

describe('a page on its way out', () => {
  test('a disposed store does not act on its aborted refresh: the tokens stay for the next page', async () => {
    let abort: (() => void) | null = null
    const h = createHarness({
      stored: SIGNED_IN_STORAGE,
      routes: {
        [`POST ${REFRESH}`]: () =>
          new Promise<Response>((_, reject) => (abort = () => reject(new TypeError('Failed to fetch')))),
      },
    })
    h.store.start()
    await flush()
    expect(abort).not.toBeNull()
    h.store.dispose()
    abort!()
    await flush()
    expect(storageEntries(h.storage)).toEqual(SIGNED_IN_STORAGE)
    expect(h.toasts).toEqual([])
    expect(h.navigations).toEqual([])
  })
})

describe('a log-out whose answer never comes', () => {
  test('is given up on after the time-out: the local session is cleared and the page moves on', async () => {
    const calls = createSessionCalls({
      fetch: (request) =>
        new Promise<Response>((_, reject) =>
          request.signal.addEventListener('abort', () => reject(request.signal.reason)),
        ),
      baseUrl: BASE_URL,
      logoutTimeoutMs: 20,
    })
    await expect(calls.deleteSession('access-0')).resolves.toBeUndefined()
  })
})

const ADA = { id: 'u1', email: 'ada@example.com', name: 'Ada' }
const signInBody = { user: ADA, token: 'access-s', refresh_token: 'refresh-s', service_token: 'service-s' }

describe('the store runs what the machine decides', () => {
  test('listeners hear each change, not an event that changed nothing, and no more once unsubscribed', async () => {
    const h = createHarness()
    const heard = vi.fn()
    const unsubscribe = h.store.subscribe(heard)
    h.store.start()
    await flush()
    expect(heard).toHaveBeenCalledTimes(1) // ready, with the session's user
    const snapshot = h.store.getSnapshot()
    h.store.handleRetried(h.store.getGeneration(), 200, null)
    expect(heard).toHaveBeenCalledTimes(1)
    expect(h.store.getSnapshot()).toBe(snapshot)
    unsubscribe()
    h.store.signIn(signInBody, { generation: h.store.getGeneration(), redirect: '/' })
    expect(heard).toHaveBeenCalledTimes(1)
    expect(h.store.getSnapshot()).toMatchObject({ isLoggedIn: true, hasTokens: true })
  })

  test('a sign-in replaces the history entry it leaves; a forced sign-out does not', async () => {
    const h = createHarness()
    h.store.signIn(signInBody, { generation: h.store.getGeneration(), redirect: '/help' })
    await h.store.handleUnauthorized(
      { generation: h.store.getGeneration(), token: 'access-s' },
      { error: 'token_invalid' },
    )
    expect(h.navigations).toEqual(['/help', '/login'])
    expect(h.replaced).toEqual(['/help'])
  })

  test('a password changed signed in: the toast, then home', () => {
    const h = createHarness({ stored: SIGNED_IN_STORAGE })
    h.store.passwordUpdated(h.store.getGeneration(), 'signed-in')
    expect(h.toasts).toEqual([{ kind: 'success', message: 'Your password has been changed.' }])
    expect(h.navigations).toEqual(['/'])
  })

  test('the lock is let go only after the rotation is announced (a waiting tab finds it)', async () => {
    let digest!: (value: string) => void
    const bus = createBus()
    const locks = createLocks()
    bus.channel() // another tab, listening
    const slow = createHarness({
      storage: createMemoryStorage(SIGNED_IN_STORAGE),
      channel: bus.channel(),
      locks,
      hash: () => new Promise<string>((resolve) => (digest = resolve)),
    })
    const refreshed = slow.store.refresh()
    await vi.waitFor(() => expect(slow.net.callsTo(REFRESH)).toHaveLength(1))
    await flush()
    let next = false
    void locks.request('auth-shell:refresh', async () => void (next = true))
    await flush()
    expect(next, 'held while the announcement is being hashed').toBe(false)
    expect(bus.posted).toEqual([])
    digest('hash(refresh-0)')
    await expect(refreshed).resolves.toBe('access-1')
    await vi.waitFor(() => expect(next).toBe(true))
    expect(bus.posted).toHaveLength(1)
  })

  test('dispose: the timer stops, waiting callers give up, the lock is let go, and later events change nothing', async () => {
    const locks = createLocks()
    const h = createHarness({
      stored: SIGNED_IN_STORAGE,
      locks,
      routes: { [`POST ${REFRESH}`]: () => new Promise<Response>(() => {}) }, // never answers
    })
    h.store.start()
    const waiting = h.store.refresh()
    await vi.waitFor(() => expect(h.net.callsTo(REFRESH)).toHaveLength(1))
    h.store.dispose()
    await expect(waiting).rejects.toThrow('Token refresh failed')
    expect(h.clock.pending()).toBe(0)
    let granted = false
    void locks.request('auth-shell:refresh', async () => void (granted = true))
    await vi.waitFor(() => expect(granted).toBe(true))
    const snapshot = h.store.getSnapshot()
    h.store.signIn(signInBody, { generation: h.store.getGeneration(), redirect: '/' })
    h.store.logout()
    expect(h.store.getSnapshot()).toBe(snapshot)
    expect(storageEntries(h.storage)).toEqual(SIGNED_IN_STORAGE)
  })
})
