import { describe, expect, test } from 'vitest'
import { createRecordingFetch, json } from '../test/recording-fetch.ts'
import { createSessionCalls } from './session-calls.ts'
import { REFRESH_FAILED } from './session-machine.ts'

const BASE_URL = 'http://app.test'
const offline = () => Promise.reject(new TypeError('Failed to fetch'))

describe('getSessionUser (the cookie session)', () => {
  const answers = [
    {
      answer: json(200, { user: { id: 'u1', email: 'ada@example.com', name: 'Ada' } }),
      user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
    },
    {
      answer: json(200, { user: { userId: 'u2', emailId: 'bob@example.com' } }),
      user: { id: 'u2', email: 'bob@example.com', name: '' },
    },
    { answer: json(200, {}), user: null },
    { answer: json(500, { error: 'session_unavailable' }), user: null },
  ] as const

  test.each(answers)('answer $answer.status -> $user', async ({ answer, user }) => {
    const requests: Request[] = []
    const calls = createSessionCalls({
      fetch: async (request) => (requests.push(request), answer.clone()),
      baseUrl: BASE_URL,
    })
    expect(await calls.getSessionUser()).toEqual(user)
    expect(requests.map((r) => `${r.method} ${r.url} ${r.headers.get('Accept')}`)).toEqual([
      `GET ${BASE_URL}/api/_auth/session application/json`,
    ])
  })

  test('a network failure is no session', async () => {
    await expect(
      createSessionCalls({ fetch: offline, baseUrl: BASE_URL }).getSessionUser(),
    ).resolves.toBeNull()
  })
})

describe('refresh (docs/behaviour.md: Refresh: success true and both tokens, else Token refresh failed)', () => {
  test('sends the refresh token and answers the new pair', async () => {
    const net = createRecordingFetch(() => json(200, { success: true, token: 'a1', refresh_token: 'r1' }))
    const pair = await createSessionCalls({ fetch: net.fetch, baseUrl: BASE_URL }).refresh('r0')
    expect(pair).toEqual({ accessToken: 'a1', refreshToken: 'r1' })
    expect(net.calls.map((c) => `${c.method} ${c.path} ${c.body}`)).toEqual([
      'POST /api/refresh_token {"refresh_token":"r0"}',
    ])
  })

  const refused = [
    { name: '401', answer: json(401, { success: false, error: 'refresh_invalid' }) },
    { name: '401 without a body', answer: new Response(null, { status: 401 }) },
    { name: 'success: false', answer: json(200, { success: false, token: 'a1', refresh_token: 'r1' }) },
    { name: 'no success field', answer: json(200, { token: 'a1', refresh_token: 'r1' }) },
    { name: 'no token', answer: json(200, { success: true, refresh_token: 'r1' }) },
    { name: 'no refresh_token', answer: json(200, { success: true, token: 'a1' }) },
    { name: 'empty tokens', answer: json(200, { success: true, token: '', refresh_token: '' }) },
  ] as const

  // The server's answer is the whole reason. No exception of ours rides along as the cause.
  test.each(refused)('$name: fails with "Token refresh failed" and no cause', async ({ answer }) => {
    const calls = createSessionCalls({ fetch: async () => answer.clone(), baseUrl: BASE_URL })
    const error = await calls.refresh('r0').catch((e: unknown) => e)
    expect(error).toEqual(new Error(REFRESH_FAILED))
    expect((error as Error).cause).toBeUndefined()
  })

  test('a network failure fails the same way, with the network error as the cause', async () => {
    await expect(createSessionCalls({ fetch: offline, baseUrl: BASE_URL }).refresh('r0')).rejects.toEqual(
      new Error(REFRESH_FAILED, { cause: new TypeError('Failed to fetch') }),
    )
  })
})

describe('deleteSession', () => {
  const tokens = [
    { accessToken: 'a0', authorization: 'Bearer a0' },
    { accessToken: null, authorization: null },
  ] as const

  test.each(tokens)('with access token $accessToken: Authorization $authorization', async (row) => {
    const net = createRecordingFetch(() => json(200, { loggedOut: true }))
    await createSessionCalls({ fetch: net.fetch, baseUrl: BASE_URL }).deleteSession(row.accessToken)
    expect(net.calls.map((c) => `${c.method} ${c.path} ${c.authorization}`)).toEqual([
      `DELETE /api/_auth/session ${row.authorization}`,
    ])
  })

  test('a failure is ignored: the local session ends whatever the server says', async () => {
    const calls = createSessionCalls({ fetch: offline, baseUrl: BASE_URL })
    await expect(calls.deleteSession('a0')).resolves.toBeUndefined()
  })
})

test('the three session calls go with the cookie session, to an API on another origin too', async () => {
  const seen: string[] = []
  const calls = createSessionCalls({
    fetch: async (request) => {
      seen.push(`${request.method} ${request.credentials}`)
      return json(200, { success: true, token: 'a1', refresh_token: 'r1' })
    },
    baseUrl: 'https://api.example',
  })
  await calls.getSessionUser()
  await calls.refresh('r0')
  await calls.deleteSession('a0')
  expect(seen).toEqual(['GET include', 'POST include', 'DELETE include'])
})
