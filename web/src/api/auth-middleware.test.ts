import { describe, expect, test } from 'vitest'
import { flush } from '../test/fake-clock.ts'
import { storageEntries } from '../test/memory-storage.ts'
import { json } from '../test/recording-fetch.ts'
import {
  createHarness,
  SIGNED_IN_STORAGE,
  type Harness,
  type HarnessOptions,
} from '../test/session-harness.ts'

const ME = '/api/me'
const REFRESH = '/api/refresh_token'
const user = { id: 'u1', email: 'ada@example.com', name: 'Ada' }

/** Signed in (timer running) with access-0 already expired on the server. */
async function expiredSession(options: HarnessOptions = {}) {
  const h = createHarness(options)
  h.store.signIn(
    { user, token: 'access-0', refresh_token: 'refresh-0', service_token: 'service-0' },
    { generation: h.store.getGeneration(), redirect: '/' },
  )
  h.backend.liveAccess.clear()
  await flush()
  h.navigations.length = 0 // the sign-in's own navigation to its redirect
  return h
}

describe('bearer header (docs/behaviour.md: Calls)', () => {
  test('added when an access token exists', async () => {
    const h = createHarness({ stored: SIGNED_IN_STORAGE })
    const { data } = await h.api.GET(ME)
    expect(data).toEqual(user)
    expect(h.net.callsTo(ME)[0]?.authorization).toBe('Bearer access-0')
  })

  test('absent without a token; a 401 then takes no part in the refresh rule', async () => {
    const h = createHarness()
    const { error, response } = await h.api.GET(ME)
    expect(response.status).toBe(401)
    expect(error).toEqual({ message: 'No token' })
    expect(h.net.calls.map((c) => [c.path, c.authorization])).toEqual([[ME, null]])
    expect([h.toasts, h.navigations, h.logs]).toEqual([[], [], []])
  })

  const publicCalls = [
    { path: '/api/auth/login', body: { email: 'ada@example.com', password: 'x' } },
    { path: '/api/auth/signup', body: { name: 'Ada', email: 'ada@example.com', password: 'password1' } },
    { path: '/api/auth/otp/send', body: { email: 'ada@example.com', purpose: 'login' } },
    { path: '/api/auth/otp/verify', body: { email: 'ada@example.com', code: '123456', purpose: 'login' } },
    { path: '/api/auth/forgot', body: { email: 'ada@example.com' } },
    { path: '/api/auth/callback', body: { code: 'c', state: 's' } },
    { path: '/api/auth/update_password', body: { reset_token: 't', password: 'password1' } },
  ] as const

  test.each(publicCalls)(
    'public call $path never carries the token nor takes part',
    async ({ path, body }) => {
      const h = createHarness({
        stored: SIGNED_IN_STORAGE,
        routes: { [`POST ${path}`]: () => json(401, { error: 'invalid_credentials', message: 'Wrong' }) },
      })
      const { response } = await h.api.POST(path, { body })
      expect(response.status).toBe(401)
      expect(h.net.calls.map((c) => [c.path, c.authorization])).toEqual([[path, null]])
      expect([h.toasts, h.navigations]).toEqual([[], []])
      expect(storageEntries(h.storage)).toEqual(SIGNED_IN_STORAGE)
    },
  )

  test.each([
    { name: 'the session call', run: (h: Harness) => h.api.GET('/api/_auth/session') },
    {
      name: 'the refresh call',
      run: (h: Harness) => h.api.POST('/api/refresh_token', { body: { refresh_token: 'refresh-0' } }),
    },
    {
      name: 'the external sign-in start',
      run: (h: Harness) =>
        h.api.GET('/api/auth/external/authorize', {
          params: { query: { state: 's', redirect_uri: '/callback' } },
        }),
    },
  ])('$name never carries the token nor takes part, refused or not', async ({ run }) => {
    const h = createHarness({
      stored: SIGNED_IN_STORAGE,
      routes: {
        'GET /api/_auth/session': () => json(401, { error: 'token_invalid' }),
        'POST /api/refresh_token': () => json(401, { success: false, error: 'refresh_invalid' }),
        'GET /api/auth/external/authorize': () => json(401, { error: 'token_invalid' }),
      },
    })
    const { response } = await run(h)
    expect(response.status).toBe(401)
    expect(h.net.calls.map((c) => c.authorization)).toEqual([null])
    expect([h.toasts, h.navigations]).toEqual([[], []])
    expect(storageEntries(h.storage)).toEqual(SIGNED_IN_STORAGE)
  })

  test.each([
    { name: 'a body that is not JSON', body: 'password=x' },
    { name: 'a JSON body without reset_token', body: '{"password":"password1"}' },
  ])('update_password with $name carries the token', async ({ body }) => {
    const h = createHarness({
      stored: SIGNED_IN_STORAGE,
      routes: { 'POST /api/auth/update_password': () => json(200, { updated: true }) },
    })
    await h.api.POST('/api/auth/update_password', {
      body: body as never,
      bodySerializer: (value) => String(value),
    })
    expect(h.net.calls[0]?.authorization).toBe('Bearer access-0')
  })

  test('only update_password goes without the token for a reset_token in its body', async () => {
    const h = createHarness({
      stored: SIGNED_IN_STORAGE,
      routes: { 'PATCH /api/process/steps/s1': () => json(200, {}) },
    })
    await h.api.PATCH('/api/process/steps/{id}', {
      params: { path: { id: 's1' } },
      body: { scheduled_at: null, reset_token: 't' } as never,
    })
    expect(h.net.calls[0]?.authorization).toBe('Bearer access-0')
  })

  test('update_password signed in (current_password) carries the token', async () => {
    const h = createHarness({
      stored: SIGNED_IN_STORAGE,
      routes: { 'POST /api/auth/update_password': () => json(200, { updated: true }) },
    })
    await h.api.POST('/api/auth/update_password', {
      body: { current_password: 'old', password: 'password1' },
    })
    expect(h.net.calls[0]?.authorization).toBe('Bearer access-0')
  })
})

describe('401 -> one refresh -> one retry (docs/behaviour.md: Session)', () => {
  const refreshable = [
    { name: 'token_expired', body: { error: 'token_expired', message: 'Token expired' } },
    { name: 'no error code', body: { message: 'Unauthorized' } },
    { name: 'no body', body: null },
    { name: 'a code that is not a text', body: { error: 5, message: 'odd' } },
    { name: 'a body that is not JSON', body: 'Unauthorized' },
    { name: 'a JSON body that is not an object', body: ['token_invalid'] },
  ] as const

  test.each(refreshable)('$name: refreshes once and retries with the new token', async ({ body }) => {
    let first = true
    const h = await expiredSession({
      routes: {
        [`GET ${ME}`]: () => {
          if (!first) return undefined
          first = false
          if (body === null) return new Response(null, { status: 401 })
          return typeof body === 'string' ? new Response(body, { status: 401 }) : json(401, body)
        },
      },
    })
    const { data } = await h.api.GET(ME)
    expect(data).toEqual(user)
    expect(h.net.calls.map((c) => `${c.method} ${c.path} ${c.authorization ?? ''}`)).toEqual([
      'GET /api/me Bearer access-0',
      'POST /api/refresh_token ',
      'GET /api/me Bearer access-1',
    ])
    expect(storageEntries(h.storage)).toMatchObject({ accessToken: 'access-1', refreshToken: 'refresh-1' })
    expect([h.toasts, h.navigations]).toEqual([[], []])
  })

  test('50 concurrent 401s: exactly one refresh call and 50 retries', async () => {
    const h = await expiredSession()
    const results = await Promise.all(Array.from({ length: 50 }, () => h.api.GET(ME)))
    expect(results.every((r) => r.response.status === 200)).toBe(true)
    expect(h.net.callsTo(REFRESH)).toHaveLength(1)
    const me = h.net.callsTo(ME)
    expect(me.filter((c) => c.authorization === 'Bearer access-0')).toHaveLength(50)
    expect(me.filter((c) => c.authorization === 'Bearer access-1')).toHaveLength(50)
    expect(me).toHaveLength(100)
  })

  test('a 401 that arrives after the tokens rotated retries with the current token, without refreshing', async () => {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    const h = await expiredSession({
      routes: {
        [`GET ${ME}`]: (_request, _body, call) =>
          call.authorization === 'Bearer access-0'
            ? gate.then(() => json(401, { error: 'token_expired' }))
            : undefined,
      },
    })
    const pending = h.api.GET(ME)
    await flush() // the request has left with access-0
    await h.store.refresh() // meanwhile, the periodic refresh (say) rotates to access-1
    release()
    const { data } = await pending
    expect(data).toEqual(user)
    expect(h.net.callsTo(REFRESH)).toHaveLength(1)
    expect(h.net.callsTo(ME).map((c) => c.authorization)).toEqual(['Bearer access-0', 'Bearer access-1'])
  })

  test("a request's body survives the retry", async () => {
    const h = await expiredSession({
      routes: {
        'PATCH /api/process/steps/step-1': (_request, body, call) =>
          call.authorization === 'Bearer access-1'
            ? json(200, { id: 'step-1', title: 'One', status: 'done', scheduled_at: null, echo: body })
            : json(401, { error: 'token_expired' }),
      },
    })
    const { data } = await h.api.PATCH('/api/process/steps/{id}', {
      params: { path: { id: 'step-1' } },
      body: { status: 'done', scheduled_at: '2030-01-02T03:04:00.000Z' },
    })
    const sent = h.net.callsTo('/api/process/steps/step-1').map((c) => c.body)
    expect(sent).toEqual([
      '{"status":"done","scheduled_at":"2030-01-02T03:04:00.000Z"}',
      '{"status":"done","scheduled_at":"2030-01-02T03:04:00.000Z"}',
    ])
    expect(data).toMatchObject({ id: 'step-1', status: 'done' })
  })

  test('a PATCH that got 503 is not re-sent, and a GET retried after the refresh follows the HTTP rule', async () => {
    let meCalls = 0
    const h = await expiredSession({
      routes: {
        'PATCH /api/process/steps/s': () => json(503, { error: 'x' }),
        [`GET ${ME}`]: () => (++meCalls === 2 ? json(503, {}) : undefined),
      },
    })
    await h.api.PATCH('/api/process/steps/{id}', { params: { path: { id: 's' } }, body: { status: 'todo' } })
    expect(h.net.callsTo('/api/process/steps/s')).toHaveLength(1)
    const { data } = await h.api.GET(ME)
    expect(data).toEqual(user)
    expect(h.net.callsTo(ME).map((c) => c.authorization)).toEqual([
      'Bearer access-0',
      'Bearer access-1',
      'Bearer access-1',
    ])
  })
})

describe('forced sign-out (docs/behaviour.md: Session, Messages)', () => {
  const secondUnauthorized = [
    {
      body: { error: 'token_expired', message: 'x' },
      toast: 'Your session has expired. Please login again.',
    },
    { body: { error: 'token_invalid', message: 'x' }, toast: 'Invalid authentication. Please login again.' },
    { body: { error: 'session_revoked', message: 'Session revoked' }, toast: 'Session revoked' },
    { body: { message: 'Still no' }, toast: 'Still no' },
    { body: {}, toast: 'Authentication failed. Please login again.' },
    { body: { error: 'access_denied', message: 42 }, toast: 'Authentication failed. Please login again.' },
  ] as const

  test.each(secondUnauthorized)(
    'a second 401 ($body) on the retried request: no second refresh, toast "$toast", /login',
    async ({ body }) => {
      let n = 0
      const h = await expiredSession({
        routes: { [`GET ${ME}`]: () => json(401, n++ === 0 ? { error: 'token_expired' } : body) },
      })
      const { response } = await h.api.GET(ME)
      expect(response.status).toBe(401)
      expect(h.net.callsTo(REFRESH)).toHaveLength(1)
      expect(h.net.callsTo(ME)).toHaveLength(2)
      expect(storageEntries(h.storage)).toEqual({})
      expect(h.clock.pending()).toBe(0)
      expect(h.navigations).toEqual(['/login'])
    },
  )

  test.each(secondUnauthorized)('the second 401 toast text for $body', async ({ body, toast }) => {
    let n = 0
    const h = await expiredSession({
      routes: { [`GET ${ME}`]: () => json(401, n++ === 0 ? { error: 'token_expired' } : body) },
    })
    await h.api.GET(ME)
    expect(h.toasts).toEqual([{ kind: 'error', message: toast }])
  })

  const atOnce = [
    {
      body: { error: 'token_invalid', message: 'Bad signature' },
      toast: 'Invalid authentication. Please login again.',
    },
    {
      body: { error: 'session_revoked', message: 'Your session was revoked.' },
      toast: 'Your session was revoked.',
    },
    { body: { error: 'session_revoked' }, toast: 'Authentication failed. Please login again.' },
  ] as const

  test.each(atOnce)(
    'a 401 with another code ($body.error) signs out at once: "$toast"',
    async ({ body, toast }) => {
      const h = await expiredSession({ routes: { [`GET ${ME}`]: () => json(401, body) } })
      await h.api.GET(ME)
      expect(h.net.callsTo(REFRESH)).toHaveLength(0)
      expect(h.net.callsTo(ME)).toHaveLength(1)
      expect(h.toasts).toEqual([{ kind: 'error', message: toast }])
      expect(h.navigations).toEqual(['/login'])
      expect(storageEntries(h.storage)).toEqual({})
      expect(h.clock.pending()).toBe(0)
    },
  )

  test('many requests refused together give one toast and one navigation', async () => {
    const h = await expiredSession({ routes: { [`GET ${ME}`]: () => json(401, { error: 'token_invalid' }) } })
    await Promise.all(Array.from({ length: 5 }, () => h.api.GET(ME)))
    expect(h.toasts).toHaveLength(1)
    expect(h.navigations).toEqual(['/login'])
  })

  test('a 401 needing a refresh without a refresh token: logs the line, sends nothing, ends like a failed refresh', async () => {
    const h = createHarness({ stored: { accessToken: 'access-0', serviceToken: 'service-0' } })
    h.backend.liveAccess.clear()
    const { response } = await h.api.GET(ME)
    expect(response.status).toBe(401)
    expect(h.logs).toEqual(['No refresh token available'])
    expect(h.net.callsTo(REFRESH)).toHaveLength(0)
    expect(h.net.callsTo(ME)).toHaveLength(1)
    expect(h.toasts).toEqual([{ kind: 'error', message: 'Session expired. Please login again.' }])
    expect(h.navigations).toEqual(['/login'])
    expect(storageEntries(h.storage)).toEqual({})
  })

  const refreshFailures = [
    { name: '401', answer: () => json(401, { success: false, error: 'refresh_reused', message: 'Reused' }) },
    { name: 'success: false', answer: () => json(200, { success: false }) },
    { name: 'missing refresh_token', answer: () => json(200, { success: true, token: 'access-9' }) },
  ] as const

  test.each(refreshFailures)(
    'the refresh after a 401 fails ($name): one toast, /login, the 401 answer',
    async ({ answer }) => {
      const h = await expiredSession({ routes: { [`POST ${REFRESH}`]: answer } })
      const results = await Promise.all([h.api.GET(ME), h.api.GET(ME), h.api.GET(ME)])
      expect(results.map((r) => r.response.status)).toEqual([401, 401, 401])
      expect(h.net.callsTo(REFRESH)).toHaveLength(1)
      expect(h.net.callsTo(ME)).toHaveLength(3)
      expect(h.toasts).toEqual([{ kind: 'error', message: 'Session expired. Please login again.' }])
      expect(h.navigations).toEqual(['/login'])
      expect(storageEntries(h.storage)).toEqual({})
      expect(h.clock.pending()).toBe(0)
    },
  )
})
