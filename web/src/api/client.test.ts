import { describe, expect, test, vi } from 'vitest'
import { createRecordingFetch, json } from '../test/recording-fetch.ts'
import type { AuthSession } from './auth-middleware.ts'
import { createApiClient } from './client.ts'

const BASE_URL = 'http://app.test'
const USER = { id: 'u1', email: 'ada@example.com', name: 'Ada' }

/** A session with the given access token whose 401 rule answers with `retryWith` (null: the 401 stands). */
function createFakeSession(token: string | null, retryWith: string | null = null): AuthSession {
  return {
    getAccessToken: () => token,
    getGeneration: () => 0,
    handleUnauthorized: async () => retryWith,
    handleRetried: () => {},
  }
}

/** An activity reporter that records how many calls were in flight whenever the network was asked. */
function createActivity() {
  const activity = {
    inFlight: 0,
    starts: 0,
    ends: 0,
    start: () => void ((activity.inFlight += 1), (activity.starts += 1)),
    end: () => void ((activity.inFlight -= 1), (activity.ends += 1)),
  }
  return activity
}

test('without a base URL the calls go to the page’s own origin', async () => {
  // Node's Request has no page to resolve a relative URL against; a browser's resolves it against the page's.
  class PageRequest extends Request {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(typeof input === 'string' ? new URL(input, 'http://page.test/somewhere/') : input, init)
    }
  }
  vi.stubGlobal('Request', PageRequest)
  try {
    const urls: string[] = []
    const api = createApiClient({
      fetch: async (request) => (urls.push(request.url), json(200, USER)),
      session: createFakeSession(null),
    })
    await api.GET('/api/me')
    expect(urls).toEqual(['http://page.test/api/me'])
  } finally {
    vi.unstubAllGlobals()
  }
})

test('sends the access token and retries a refused call once with the token the session answers', async () => {
  const net = createRecordingFetch((_request, _body, call) =>
    call.authorization === 'Bearer access-1' ? json(200, USER) : json(401, { error: 'token_expired' }),
  )
  const api = createApiClient({
    fetch: net.fetch,
    session: createFakeSession('access-0', 'access-1'),
    baseUrl: BASE_URL,
  })
  const { data } = await api.GET('/api/me')
  expect(data).toEqual(USER)
  expect(net.calls.map((call) => call.authorization)).toEqual(['Bearer access-0', 'Bearer access-1'])
})

test('every call goes with the cookie session, to an API on another origin too: the first, the retried one and one retried for its status', async () => {
  const credentials: string[] = []
  let answers = 0
  const api = createApiClient({
    fetch: async (request) => {
      credentials.push(request.credentials)
      answers += 1
      if (answers === 1) return json(401, { error: 'token_expired' })
      return answers === 2 ? json(503, { error: 'server_error' }) : json(200, USER)
    },
    session: createFakeSession('access-0', 'access-1'),
    baseUrl: 'https://api.example',
  })
  const { data } = await api.GET('/api/me')
  expect(data).toEqual(USER)
  expect(credentials).toEqual(['include', 'include', 'include'])
})

describe('the activity reporter (the layout’s loading bar)', () => {
  test('counts a call from its sending until its answer', async () => {
    const activity = createActivity()
    const seen: number[] = []
    const net = createRecordingFetch(() => (seen.push(activity.inFlight), json(200, USER)))
    const api = createApiClient({
      fetch: net.fetch,
      session: createFakeSession(null),
      baseUrl: BASE_URL,
      activity,
    })
    await Promise.all([api.GET('/api/me'), api.GET('/api/me')])
    expect(seen).toEqual([2, 2])
    expect(activity).toMatchObject({ inFlight: 0, starts: 2, ends: 2 })
  })

  test('a call retried after a 401 is one call until the retried answer is in', async () => {
    const activity = createActivity()
    const seen: number[] = []
    const net = createRecordingFetch((_request, _body, call) => {
      seen.push(activity.inFlight)
      return call.authorization === 'Bearer access-1'
        ? json(200, USER)
        : json(401, { error: 'token_expired' })
    })
    const api = createApiClient({
      fetch: net.fetch,
      session: createFakeSession('access-0', 'access-1'),
      baseUrl: BASE_URL,
      activity,
    })
    await api.GET('/api/me')
    expect(seen).toEqual([1, 1])
    expect(activity).toMatchObject({ inFlight: 0, starts: 1, ends: 1 })
  })

  test('a call that fails on the network ends too', async () => {
    const activity = createActivity()
    const api = createApiClient({
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
      session: createFakeSession(null),
      baseUrl: BASE_URL,
      activity,
    })
    await expect(api.GET('/api/me')).rejects.toThrow('Failed to fetch')
    expect(activity).toMatchObject({ inFlight: 0, starts: 1, ends: 1 })
  })

  test('a call whose retry fails on the network ends too (the bar does not stay)', async () => {
    const activity = createActivity()
    const net = createRecordingFetch((_request, _body, call) => {
      if (call.authorization === 'Bearer access-1') throw new TypeError('Failed to fetch')
      return json(401, { error: 'token_expired' })
    })
    const api = createApiClient({
      fetch: net.fetch,
      session: createFakeSession('access-0', 'access-1'),
      baseUrl: BASE_URL,
      activity,
    })
    await expect(api.GET('/api/me')).rejects.toThrow('Failed to fetch')
    expect(activity).toMatchObject({ inFlight: 0, starts: 1, ends: 1 })
  })

  test('a call that fails before it is sent ends too, and the caller gets the error as thrown', () => {
    const activity = createActivity()
    const net = createRecordingFetch(() => json(200, USER))
    const api = createApiClient({
      fetch: net.fetch,
      session: createFakeSession(null),
      baseUrl: BASE_URL,
      activity,
    })
    // Options whose reading throws: the client reads them as it is called, before anything is sent.
    const options = {
      get params(): never {
        throw new TypeError('Options could not be read')
      },
    }
    expect(() => api.GET('/api/me', options)).toThrow('Options could not be read')
    expect(net.calls).toEqual([])
    expect(activity).toMatchObject({ inFlight: 0, starts: 1, ends: 1 })
  })

  test('adding and removing a middleware is no call: nothing is counted', () => {
    const activity = createActivity()
    const api = createApiClient({
      fetch: async () => json(200, USER),
      session: createFakeSession(null),
      baseUrl: BASE_URL,
      activity,
    })
    const middleware = { onRequest: () => undefined }
    api.use(middleware)
    api.eject(middleware)
    expect(activity).toMatchObject({ inFlight: 0, starts: 0, ends: 0 })
  })

  test('every method is counted', async () => {
    const activity = createActivity()
    const api = createApiClient({
      fetch: async () => json(200, {}),
      session: createFakeSession(null),
      baseUrl: BASE_URL,
      activity,
    })
    await api.PUT('/api/me' as never, {} as never)
    await api.POST('/api/auth/forgot', { body: { email: 'ada@example.com' } })
    await api.DELETE('/api/_auth/session')
    await api.PATCH('/api/process/steps/{id}', {
      params: { path: { id: 's1' } },
      body: { scheduled_at: null },
    })
    await api.GET('/api/me')
    expect(activity).toMatchObject({ inFlight: 0, starts: 5, ends: 5 })
  })
})
