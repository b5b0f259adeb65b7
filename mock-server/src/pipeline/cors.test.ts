// The CORS rules of the product API (docs/decisions/020-deploying-on-two-origins.md), one rule a row.
import { describe, expect, test } from 'vitest'
import { addCorsHeaders, answerPreflight, CORS_ALLOWED_HEADERS, isAllowedOrigin } from './cors.ts'
import { bodyFrom, bodyText, errorResponse, jsonResponse, type RawRequest } from './raw.ts'

const APP = 'https://app.example'
const ORIGINS = new Set([APP, 'http://127.0.0.1:5173'])

function request(method: string, headers: Record<string, string> = {}): RawRequest {
  return {
    method,
    url: '/api/_auth/session',
    headers,
    readBody: bodyFrom(undefined),
    ip: '127.0.0.1',
    secure: false,
    origin: 'http://127.0.0.1:4010',
  }
}

const preflight = (origin: string, method = 'DELETE') =>
  request('OPTIONS', {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': 'authorization',
  })

describe('a preflight', () => {
  test('from a named origin: 204, that origin with credentials, the methods of the path, the headers the app sends', () => {
    expect(answerPreflight(ORIGINS, preflight(APP), ['GET', 'DELETE'])).toEqual({
      status: 204,
      headers: {
        'access-control-allow-origin': APP,
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET, DELETE',
        'access-control-allow-headers': 'Authorization, Content-Type, sentry-trace, baggage',
        'access-control-max-age': '600',
        'cache-control': 'no-store',
        vary: 'Origin',
      },
      body: undefined,
    })
  })

  test.each([
    ['another origin', 'https://evil.example'],
    ['the named host on another port', 'https://app.example:8443'],
    ['the named host over http', 'http://app.example'],
    ['an opaque origin', 'null'],
  ])('from %s: 403 cross_site_request in the error shape, no CORS header', (_label, origin) => {
    const answer = answerPreflight(ORIGINS, preflight(origin), ['GET', 'DELETE'])
    expect(answer?.status).toBe(403)
    expect(JSON.parse(bodyText(answer?.body))).toEqual({
      error: 'cross_site_request',
      message: 'This API takes no calls from that origin.',
    })
    expect(Object.keys(answer?.headers ?? {}).filter((name) => name.startsWith('access-control-'))).toEqual(
      [],
    )
    expect(answer?.headers.vary).toBe('Origin')
  })

  test.each([
    ['without Origin', request('OPTIONS', { 'access-control-request-method': 'DELETE' })],
    ['without Access-Control-Request-Method', request('OPTIONS', { origin: APP })],
    ['of another method', request('DELETE', { origin: APP, 'access-control-request-method': 'DELETE' })],
  ])('an OPTIONS %s is no preflight: left to the usual rules', (_label, raw) => {
    expect(answerPreflight(ORIGINS, raw, ['GET'])).toBeNull()
  })

  test('with no origin named, every preflight is refused', () => {
    expect(answerPreflight(new Set(), preflight(APP), ['GET'])?.status).toBe(403)
  })

  test('the headers the app sends are all allowed', () => {
    const allowed = CORS_ALLOWED_HEADERS.toLowerCase().split(', ')
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type']))
  })
})

describe('an answer', () => {
  const answer = () => jsonResponse(200, { loggedOut: true })

  test('to a named origin: that origin, credentials, Vary: Origin', () => {
    const { headers } = addCorsHeaders(ORIGINS, request('DELETE', { origin: APP }), answer())
    expect(headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    })
  })

  test.each([
    ['another origin', { origin: 'https://evil.example' }],
    ['no Origin (same-origin GET, curl)', {}],
  ])('to %s: no CORS header, only Vary: Origin', (_label, headers) => {
    const sent = addCorsHeaders(ORIGINS, request('GET', headers), answer())
    expect(Object.keys(sent.headers).filter((name) => name.startsWith('access-control-'))).toEqual([])
    expect(sent.headers.vary).toBe('Origin')
  })

  test('an answer that already varies keeps its Vary and adds Origin once', () => {
    const varied = errorResponse(429, 'rate_limited', 'Slow down.')
    varied.headers.vary = 'Accept-Encoding'
    expect(addCorsHeaders(ORIGINS, request('POST', { origin: APP }), varied).headers.vary).toBe(
      'Accept-Encoding, Origin',
    )
    varied.headers.vary = 'origin'
    expect(addCorsHeaders(ORIGINS, request('POST', { origin: APP }), varied).headers.vary).toBe('origin')
  })

  test('the status, body and other headers are kept', () => {
    const sent = addCorsHeaders(ORIGINS, request('DELETE', { origin: APP }), answer())
    expect(sent).toMatchObject({ status: 200, body: '{"loggedOut":true}' })
    expect(sent.headers['cache-control']).toBe('no-store')
  })
})

test.each([
  [{ origin: APP }, true],
  [{ origin: 'http://127.0.0.1:5173' }, true],
  [{ origin: 'http://127.0.0.1:5174' }, false],
  [{ origin: 'HTTPS://APP.EXAMPLE' }, false],
  [{}, false],
])('isAllowedOrigin(%o) is %s: exact, as browsers write Origin', (headers, allowed) => {
  expect(isAllowedOrigin(ORIGINS, headers)).toBe(allowed)
})
