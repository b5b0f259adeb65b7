import { describe, expect, test } from 'vitest'
import { maskBody, maskUrl, sanitizeNetworkCapture, type NetworkCapture } from './recorder-sanitizer.ts'

describe('the recorder sanitizer: headers', () => {
  const rows = [
    { name: 'Authorization', value: 'Bearer eyJ.a.b', masked: true },
    { name: 'authorization', value: 'Bearer eyJ.a.b', masked: true },
    { name: 'Cookie', value: 'sid=abc', masked: true },
    { name: 'set-cookie', value: 'sid=abc; HttpOnly', masked: true },
    { name: 'Set-Cookie', value: 'sid=abc; HttpOnly', masked: true },
    { name: 'content-type', value: 'application/json', masked: false },
    { name: 'x-request-id', value: 'r-1', masked: false },
  ] as const

  test.each(rows)('$name: masked $masked', ({ name, value, masked }) => {
    const capture = sanitizeNetworkCapture({
      status: 200,
      method: 'GET',
      url: '/api/me',
      request: { headers: { [name]: value }, body: null },
      response: { headers: { [name]: value }, body: null },
    })
    expect(capture.request.headers[name]).toBe(masked ? '***' : value)
    expect(capture.response.headers[name]).toBe(masked ? '***' : value)
  })
})

describe('the recorder sanitizer: fields, in request and response bodies', () => {
  const rows = [
    { field: 'password', masked: true },
    { field: 'current_password', masked: true },
    { field: 'token', masked: true },
    { field: 'refresh_token', masked: true },
    { field: 'service_token', masked: true },
    { field: 'reset_token', masked: true },
    { field: 'code', masked: true },
    { field: 'refreshToken', masked: true },
    { field: 'Password', masked: true },
    { field: 'email', masked: false },
    { field: 'name', masked: false },
    { field: 'purpose', masked: false },
  ] as const

  test.each(rows)('$field: masked $masked', ({ field, masked }) => {
    const body = { [field]: 'secret-value', kept: 'visible' }
    const capture = sanitizeNetworkCapture({
      status: 200,
      method: 'POST',
      url: '/api/auth/login',
      request: { headers: {}, body: JSON.stringify(body) },
      response: { headers: {}, body },
    })
    const expected = { [field]: masked ? '***' : 'secret-value', kept: 'visible' }
    expect(JSON.parse(capture.request.body!)).toEqual(expected)
    expect(capture.response.body).toEqual(expected)
  })
})

test('a sign-in answer: the tokens are masked at depth; the user is kept', () => {
  const capture: NetworkCapture = {
    status: 200,
    method: 'POST',
    url: 'http://app.test/api/auth/login',
    request: {
      headers: { 'content-type': 'application/json' },
      body: '{"email":"ada@example.com","password":"analytical-engine-1843"}',
    },
    response: {
      headers: { 'set-cookie': 'sid=s1' },
      body: {
        user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
        token: 'eyJ.a.b',
        refresh_token: 'r1',
        service_token: 's1',
        history: [{ code: '123456' }],
      },
    },
  }
  expect(sanitizeNetworkCapture(capture)).toEqual({
    ...capture,
    request: {
      headers: { 'content-type': 'application/json' },
      body: '{"email":"ada@example.com","password":"***"}',
    },
    response: {
      headers: { 'set-cookie': '***' },
      body: {
        user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
        token: '***',
        refresh_token: '***',
        service_token: '***',
        history: [{ code: '***' }],
      },
    },
  })
  expect(capture.request.body).toContain('analytical-engine-1843') // the original is not changed
})

describe('bodies that are not JSON objects', () => {
  const rows = [
    { name: 'nothing', body: null, masked: null },
    { name: 'plain text', body: 'hello', masked: 'hello' },
    { name: 'a form', body: 'email=a%40b.c&password=p', masked: 'email=a%40b.c&password=***' },
    { name: 'a JSON array', body: '[{"token":"t"}]', masked: '[{"token":"***"}]' },
    { name: 'a JSON string', body: '"token"', masked: '"token"' },
    { name: 'a null field stays null', body: '{"code":null}', masked: '{"code":null}' },
  ] as const

  test.each(rows)('$name', ({ body, masked }) => {
    expect(maskBody(body)).toBe(masked)
  })
})

describe('URLs', () => {
  const rows = [
    { url: '/callback?code=abc&state=xyz', masked: '/callback?code=***&state=xyz' },
    { url: 'https://app.test/api/me', masked: 'https://app.test/api/me' },
    { url: '/__mock/requests?email=a%40b.c', masked: '/__mock/requests?email=a%40b.c' },
    { url: '/x?token=t#frag', masked: '/x?token=***#frag' },
  ] as const

  test.each(rows)('$url', ({ url, masked }) => {
    expect(maskUrl(url)).toBe(masked)
  })
})
