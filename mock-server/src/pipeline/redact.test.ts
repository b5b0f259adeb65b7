// The redaction rule of the journal and its HAR (docs/decisions/017-har-record-and-replay.md): secrets by name in JSON,
// query strings and forms; credentials in headers; cookie values.
import { expect, test } from 'vitest'
import {
  REDACTED,
  isSecretName,
  redactBodyText,
  redactHeader,
  redactJson,
  redactSearch,
  redactUrl,
} from './redact.ts'

test.each([
  'password',
  'newPassword',
  'current_password',
  'currentPassword',
  'token',
  'accessToken',
  'refreshToken',
  'serviceToken',
  'refresh_token',
  'service_token',
  'reset_token',
  'id_token',
  'access_token',
  'client_secret',
  'code',
  'Code',
  'code_verifier',
  'otp',
  'state',
  'nonce',
  'x-api-key',
])('%s is a secret name', (name) => {
  expect(isSecretName(name)).toBe(true)
})

test.each(['email', 'name', 'purpose', 'error', 'error_code', 'message', 'resend_after', 'status', 'id'])(
  '%s is not a secret name',
  (name) => {
    expect(isSecretName(name)).toBe(false)
  },
)

test('JSON loses every secret value at any depth, arrays included, and keeps the rest as it was', () => {
  const body = {
    email: 'ada@example.com',
    password: 'analytical-engine-1843',
    user: { id: 'u1', name: 'Ada' },
    token: 'eyJ.a.b',
    sessions: [{ refresh_token: 'r1', kept: 1 }],
    nested: { deeper: { newPassword: 'n', code: 123456, code_verifier: 'v' } },
    tokens: { access: 'a', refresh: 'r' },
    hasPassword: true,
    service_token: null,
  }
  expect(redactJson(body)).toEqual({
    email: 'ada@example.com',
    password: REDACTED,
    user: { id: 'u1', name: 'Ada' },
    token: REDACTED,
    sessions: [{ refresh_token: REDACTED, kept: 1 }],
    nested: { deeper: { newPassword: REDACTED, code: REDACTED, code_verifier: REDACTED } },
    tokens: REDACTED,
    hasPassword: true,
    service_token: null,
  })
})

test('a query string loses its secret values, keeps the others and their order', () => {
  expect(redactSearch('?code=123456&state=abc&from=sso&token=t&q=a+b')).toBe(
    `?code=${REDACTED}&state=${REDACTED}&from=sso&token=${REDACTED}&q=a+b`,
  )
  expect(redactSearch('')).toBe('')
})

test('a URL loses the secrets of its query and of a fragment written as a query; a plain one is kept', () => {
  expect(redactUrl('/callback?code=123456&state=s1')).toBe(`/callback?code=${REDACTED}&state=${REDACTED}`)
  expect(redactUrl('https://idp.example/cb#access_token=abc&token_type=Bearer&x=1')).toBe(
    `https://idp.example/cb#access_token=${REDACTED}&token_type=${REDACTED}&x=1`,
  )
  expect(redactUrl('/api/me')).toBe('/api/me')
  expect(redactUrl('/page#section')).toBe('/page#section')
})

test('headers: Authorization keeps its scheme, cookies their names and attributes, a Location its safe parts', () => {
  expect(redactHeader('Authorization', 'Bearer eyJ.a.b')).toBe(`Bearer ${REDACTED}`)
  expect(redactHeader('authorization', 'opaque')).toBe(REDACTED)
  expect(redactHeader('cookie', 'sid=abc; theme=dark')).toBe(`sid=${REDACTED}; theme=${REDACTED}`)
  expect(redactHeader('set-cookie', 'sid=abc; Path=/; HttpOnly; SameSite=Lax')).toBe(
    `sid=${REDACTED}; Path=/; HttpOnly; SameSite=Lax`,
  )
  expect(redactHeader('location', '/callback?code=123456&state=s')).toBe(
    `/callback?code=${REDACTED}&state=${REDACTED}`,
  )
  expect(redactHeader('x-mock-control-token', 'k3y')).toBe(REDACTED)
  expect(redactHeader('x-refresh-token', 'r')).toBe(REDACTED)
  expect(redactHeader('content-type', 'application/json')).toBe('application/json')
  expect(redactHeader('x-forwarded-for', '10.1.2.3')).toBe('10.1.2.3')
})

test('bodies: JSON and forms by field, other text whole when it names a secret, unreadable JSON whole', () => {
  expect(redactBodyText('application/json; charset=utf-8', '{"email":"a@b.c","password":"p"}')).toBe(
    `{"email":"a@b.c","password":"${REDACTED}"}`,
  )
  expect(redactBodyText('application/problem+json', '{"token":"t"}')).toBe(`{"token":"${REDACTED}"}`)
  expect(redactBodyText('application/json', '{"password": "p"')).toBe(REDACTED)
  expect(redactBodyText('application/x-www-form-urlencoded', 'email=a%40b.c&password=p')).toBe(
    `email=a%40b.c&password=${REDACTED}`,
  )
  expect(redactBodyText('text/plain', 'password=hunter2')).toBe(REDACTED)
  expect(redactBodyText('text/plain', 'hello')).toBe('hello')
})

test('JSON text is kept as it is only when no key names a secret, however the key is spelled', () => {
  const plain = '{"id":"u1","email":"ada@example.com","time":"10:30"}'
  expect(redactBodyText('application/json', plain)).toBe(plain)
  expect(redactBodyText('application/json', '{"c_o_d_e":"493817"}')).toBe(`{"c_o_d_e":"${REDACTED}"}`)
  expect(redactBodyText('application/json', '{"pass\\u0077ord":"hunter2"}')).toBe(
    `{"password":"${REDACTED}"}`,
  )
  expect(redactBodyText('application/json', '{"note":"a \\"code\\": here","Token":"t"}')).toBe(
    `{"note":"a \\"code\\": here","Token":"${REDACTED}"}`,
  )
})
