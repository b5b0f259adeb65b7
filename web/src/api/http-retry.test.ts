import { describe, expect, test } from 'vitest'
import { createRecordingFetch, json } from '../test/recording-fetch.ts'
import { shouldRetry, withHttpRetry } from './http-retry.ts'

const URL = 'http://app.test/api/thing'

function flaky(firstStatus: number) {
  let n = 0
  return createRecordingFetch(() => (n++ === 0 ? json(firstStatus, { error: 'x' }) : json(200, { ok: true })))
}

const request = (method: string) =>
  new Request(URL, {
    method,
    ...(['GET', 'HEAD'].includes(method)
      ? {}
      : { body: '{"a":1}', headers: { 'Content-Type': 'application/json' } }),
  })

describe('HTTP retry rule (docs/behaviour.md: Calls)', () => {
  const retried = [408, 409, 425, 429, 500, 502, 503, 504].flatMap((status) =>
    (['GET', 'HEAD', 'OPTIONS'] as const).map((method) => ({ method, status })),
  )
  test.each(retried)('$method $status is sent once more', async ({ method, status }) => {
    const net = flaky(status)
    const response = await withHttpRetry(net.fetch)(request(method))
    expect(net.calls.map((c) => c.method)).toEqual([method, method])
    expect(response.status).toBe(200)
  })

  const neverResent = [408, 409, 425, 429, 500, 502, 503, 504].flatMap((status) =>
    (['POST', 'PUT', 'PATCH', 'DELETE'] as const).map((method) => ({ method, status })),
  )
  test.each(neverResent)('$method $status is never re-sent', async ({ method, status }) => {
    const net = flaky(status)
    const response = await withHttpRetry(net.fetch)(request(method))
    expect(net.calls).toHaveLength(1)
    expect(response.status).toBe(status)
  })

  const notRetried = [400, 401, 403, 404, 405, 410, 413, 422, 501, 505] as const
  test.each(notRetried)('GET %i is not retried', async (status) => {
    const net = flaky(status)
    expect((await withHttpRetry(net.fetch)(request('GET'))).status).toBe(status)
    expect(net.calls).toHaveLength(1)
  })

  test('a refused answer without a body is retried too', async () => {
    let n = 0
    const net = createRecordingFetch(() => (n++ === 0 ? new Response(null, { status: 503 }) : json(200, {})))
    expect((await withHttpRetry(net.fetch)(request('GET'))).status).toBe(200)
    expect(net.calls).toHaveLength(2)
  })

  test('retries once only: a second 503 is the answer', async () => {
    const net = createRecordingFetch(() => json(503, {}))
    expect((await withHttpRetry(net.fetch)(request('GET'))).status).toBe(503)
    expect(net.calls).toHaveLength(2)
  })

  test('the retried request is the same request: its headers survive', async () => {
    const net = flaky(503)
    const req = new Request(URL, {
      method: 'OPTIONS',
      headers: { Authorization: 'Bearer t', 'X-Trace': '1' },
    })
    await withHttpRetry(net.fetch)(req)
    expect(net.calls.map((c) => c.authorization)).toEqual(['Bearer t', 'Bearer t'])
  })
})

const rule = [
  { method: 'GET', status: 503, retry: true },
  { method: 'get', status: 429, retry: true },
  { method: 'HEAD', status: 408, retry: true },
  { method: 'OPTIONS', status: 425, retry: true },
  { method: 'GET', status: 501, retry: false },
  { method: 'GET', status: 200, retry: false },
  { method: 'POST', status: 503, retry: false },
  { method: 'PUT', status: 503, retry: false },
  { method: 'PATCH', status: 409, retry: false },
  { method: 'delete', status: 500, retry: false },
] as const

test.each(rule)('shouldRetry($method, $status) = $retry', ({ method, status, retry }) => {
  expect(shouldRetry(method, status)).toBe(retry)
})
