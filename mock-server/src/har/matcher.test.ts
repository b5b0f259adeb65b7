// The replay's matching rules (docs/decisions/017-har-record-and-replay.md): method, path, query in any order, JSON
// body deep-equal, secrets and `[redacted]` as wildcards; recorded order for several, the last repeated; no match.
import { expect, test } from 'vitest'
import { REDACTED } from '../pipeline/redact.ts'
import type { RecordedCall } from './har-file.ts'
import { createReplayMatcher, matchJson, matchPairs, matchesCall, type IncomingCall } from './matcher.ts'

let nextIndex = 0
function recorded(
  method: string,
  url: string,
  options: { body?: string; mimeType?: string; status?: number; answer?: string } = {},
): RecordedCall {
  const parsed = new URL(url, 'https://backend.example')
  return {
    index: nextIndex++,
    method,
    path: parsed.pathname,
    query: [...parsed.searchParams],
    ...(options.body !== undefined && {
      body: { mimeType: options.mimeType ?? 'application/json', text: options.body },
    }),
    response: {
      status: options.status ?? 200,
      headers: [['content-type', 'application/json']],
      body: { mimeType: 'application/json', text: options.answer ?? '{}' },
    },
  }
}

function incoming(method: string, url: string, body = '', contentType?: string): IncomingCall {
  const parsed = new URL(url, 'http://127.0.0.1:4010')
  return { method, path: parsed.pathname, query: [...parsed.searchParams], body, contentType }
}

test('method and path must be the same; the origin is not compared', () => {
  const call = recorded('GET', 'https://staging.example.com/api/me')
  expect(matchesCall(call, incoming('GET', '/api/me'))).toBe(true)
  expect(matchesCall(call, incoming('POST', '/api/me'))).toBe(false)
  expect(matchesCall(call, incoming('GET', '/api/me/'))).toBe(false)
  expect(matchesCall(call, incoming('GET', '/api/help'))).toBe(false)
})

test('the query matches in any order, with the same values, as often', () => {
  const call = recorded('GET', '/api/help?q=reset&page=2&tag=a&tag=b')
  expect(matchesCall(call, incoming('GET', '/api/help?page=2&tag=b&q=reset&tag=a'))).toBe(true)
  expect(matchesCall(call, incoming('GET', '/api/help?q=reset&page=3&tag=a&tag=b'))).toBe(false)
  expect(matchesCall(call, incoming('GET', '/api/help?q=reset&page=2&tag=a'))).toBe(false)
  expect(matchesCall(call, incoming('GET', '/api/help?q=reset&page=2&tag=a&tag=b&extra=1'))).toBe(false)
  expect(matchesCall(call, incoming('GET', '/api/help'))).toBe(false)
})

test('a secret query parameter, or a recorded [redacted], matches any value but must be there', () => {
  expect(
    matchPairs(
      [
        ['code', '123456'],
        ['state', 's'],
      ],
      [
        ['state', 'other'],
        ['code', '999999'],
      ],
    ),
  ).toBe(true)
  expect(matchPairs([['view', REDACTED]], [['view', 'full']])).toBe(true)
  expect(matchPairs([['code', REDACTED]], [])).toBe(false)
  expect(matchPairs([['code', REDACTED]], [['other', '1']])).toBe(false)
})

test('a JSON body matches deep-equal, whatever the key order and spacing', () => {
  const call = recorded('PATCH', '/api/process/steps/s1', {
    body: '{"status":"done","scheduled_at":null,"n":[1,2]}',
  })
  const same = '{ "n": [1, 2], "scheduled_at": null, "status": "done" }'
  expect(matchesCall(call, incoming('PATCH', '/api/process/steps/s1', same))).toBe(true)
  for (const other of [
    '{"status":"todo","scheduled_at":null,"n":[1,2]}',
    '{"status":"done","scheduled_at":null,"n":[2,1]}',
    '{"status":"done","n":[1,2]}',
    '{"status":"done","scheduled_at":null,"n":[1,2],"extra":true}',
    '',
  ])
    expect(matchesCall(call, incoming('PATCH', '/api/process/steps/s1', other)), other).toBe(false)
})

test('secret fields match any value, redacted or recorded in clear; the other fields still count', () => {
  const exported = recorded('POST', '/api/auth/login', {
    body: `{"email":"ada@example.com","password":"${REDACTED}"}`,
  })
  const browser = recorded('POST', '/api/auth/login', {
    body: '{"email":"ada@example.com","password":"typed then"}',
  })
  for (const call of [exported, browser]) {
    expect(
      matchesCall(call, incoming('POST', '/api/auth/login', '{"email":"ada@example.com","password":"x"}')),
    ).toBe(true)
    expect(
      matchesCall(call, incoming('POST', '/api/auth/login', '{"email":"grace@example.com","password":"x"}')),
    ).toBe(false)
    expect(matchesCall(call, incoming('POST', '/api/auth/login', '{"email":"ada@example.com"}'))).toBe(false)
  }
  expect(
    matchJson(
      { refresh_token: 'old', nested: { code: '123456' } },
      { refresh_token: 'new', nested: { code: '1' } },
    ),
  ).toBe(true)
  expect(matchJson({ user: { name: REDACTED } }, { user: { name: 'anyone' } })).toBe(true)
})

test('a recorded request without a body matches any body: a browser may have left it out', () => {
  // Chromium writes the app's fetch POSTs with no postData (Content-Length 100, bodySize 0).
  const call = recorded('POST', '/api/auth/login')
  expect(matchesCall(call, incoming('POST', '/api/auth/login', '{"email":"a@b.c","password":"p"}'))).toBe(
    true,
  )
  expect(matchesCall(call, incoming('POST', '/api/auth/login'))).toBe(true)
  expect(
    matchesCall(recorded('POST', '/api/auth/login', { body: '' }), incoming('POST', '/api/auth/login', '{}')),
  ).toBe(false)
})

test('a body that is not JSON matches as the same text; a form as its fields', () => {
  const text = recorded('POST', '/api/1/envelope/', { body: 'line one\nline two', mimeType: 'text/plain' })
  expect(matchesCall(text, incoming('POST', '/api/1/envelope/', 'line one\nline two'))).toBe(true)
  expect(matchesCall(text, incoming('POST', '/api/1/envelope/', 'line one'))).toBe(false)
  const form = recorded('POST', '/api/form', {
    body: 'email=a%40b.c&password=p',
    mimeType: 'application/x-www-form-urlencoded',
  })
  expect(matchesCall(form, incoming('POST', '/api/form', 'password=other&email=a%40b.c'))).toBe(true)
  expect(matchesCall(form, incoming('POST', '/api/form', 'password=other&email=x%40b.c'))).toBe(false)
})

test('several matching calls are served in recorded order, then the last again; rewind starts over', () => {
  const signedOut = recorded('GET', '/api/_auth/session', { answer: '{}' })
  const login = recorded('POST', '/api/auth/login', { body: '{"email":"a@b.c","password":"p"}' })
  const signedIn = recorded('GET', '/api/_auth/session', { answer: '{"user":{}}' })
  const matcher = createReplayMatcher([signedOut, login, signedIn])
  const session = incoming('GET', '/api/_auth/session')
  const take = () => matcher.take(session).call?.index
  expect([take(), take(), take()]).toEqual([signedOut.index, signedIn.index, signedIn.index])
  matcher.rewind()
  expect(take()).toBe(signedOut.index)
  expect(matcher.take(incoming('POST', '/api/auth/login', '{"email":"a@b.c","password":"q"}')).call).toBe(
    login,
  )
})

test('a request nothing matches gets no call, and a reason naming what was recorded for its path', () => {
  const matcher = createReplayMatcher([recorded('GET', '/api/help?q=a'), recorded('GET', '/api/help?q=b')])
  const other = matcher.take(incoming('GET', '/api/help?q=c'))
  expect(other).toEqual({
    call: null,
    reason: '2 calls were recorded for GET /api/help, none with this query and body',
  })
  expect(matcher.take(incoming('GET', '/api/process'))).toEqual({
    call: null,
    reason: 'nothing was recorded for GET /api/process',
  })
})
