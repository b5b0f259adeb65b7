import { describe, expect, test } from 'vitest'
import {
  describeSetCookie,
  findCarriedSecret,
  findCookieFaults,
  isOverHttps,
} from '#contracts/support/safe-answer.ts'

describe('isOverHttps', () => {
  test.each([
    ['https://api.example/api/me', undefined, true],
    ['http://127.0.0.1/api/me', undefined, false],
    ['http://127.0.0.1/api/me', 'https', true],
    ['http://127.0.0.1/api/me', 'http, https', true],
    // The left-most entries are the client's to write; the right-most is the trusted hop's.
    ['http://127.0.0.1/api/me', 'https, http', false],
    [undefined, ' HTTPS ', true],
  ] as const)('%s with X-Forwarded-Proto %s → %s', (url, forwarded, expected) => {
    expect(isOverHttps(url, forwarded)).toBe(expected)
  })
})

describe('findCookieFaults', () => {
  const plain = { overHttps: false, mustExpire: false, now: Date.parse('2026-01-01T00:00:00Z') }
  test.each([
    ['sid=v; Path=/; HttpOnly; SameSite=Lax', plain, []],
    ['sid=v', plain, ['HttpOnly', 'SameSite', 'Path=/']],
    ['sid=v; Path=/; HttpOnly; SameSite=Sometimes', plain, ['SameSite of Lax, Strict or None']],
    ['sid=v; Path=/; HttpOnly; SameSite=None', plain, ['Secure (SameSite=None needs it)']],
    ['sid=v; Path=/; HttpOnly; SameSite=Lax; Max-Age=-1', { ...plain, mustExpire: true }, []],
    // Max-Age wins over Expires, as browsers apply them.
    [
      'sid=; Path=/; HttpOnly; SameSite=Lax; Max-Age=60; Expires=Thu, 01 Jan 1970 00:00:00 GMT',
      { ...plain, mustExpire: true },
      ['an expiry (Max-Age=0 or an Expires in the past: the answer ends the session)'],
    ],
  ] as const)('%s', (value, rule, faults) => {
    expect(findCookieFaults(value, rule)).toEqual(faults)
  })
})

describe('findCarriedSecret', () => {
  test.each([
    [{ user: { id: 'u1' } }, undefined, undefined, null],
    [{ token: 'jwt' }, undefined, undefined, 'a token (body field token)'],
    [{ messages: [{ code: '123456' }] }, undefined, undefined, 'a code (body field code)'],
    [{ error: 'invalid_code' }, undefined, undefined, null],
    [undefined, '/callback?code=c&state=s', undefined, 'a code (Location query code)'],
    [undefined, '/idp/authorize?state=s', undefined, null],
    [undefined, undefined, ['sid=; Max-Age=0'], 'a cookie (Set-Cookie)'],
  ] as const)('%j, Location %s, Set-Cookie %j → %s', (body, location, cookies, expected) => {
    expect(findCarriedSecret(body, location, cookies)).toBe(expected)
  })
})

test('describeSetCookie leaves the value out and the attributes as sent', () => {
  expect(describeSetCookie('__Host-sid=s3cret; Path=/; HttpOnly; Secure')).toBe(
    '__Host-sid=…; Path=/; HttpOnly; Secure',
  )
})
