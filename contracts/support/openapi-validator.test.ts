import { describe, expect, test } from 'vitest'
import {
  createOpenApiValidator,
  findOperation,
  listDocumentedPairs,
  validateResponse,
  type ResponseToValidate,
} from '#contracts/support/openapi-validator.ts'
import { loadProjectDocuments } from '#contracts/support/openapi-documents.ts'

const JSON_NO_STORE = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }
const USER = { id: 'u1', email: 'ada@example.com', name: 'Ada' }
const SIGNED_IN = { user: USER, token: 'jwt', refresh_token: 'r1', service_token: 's1' }

const response = (overrides: Partial<ResponseToValidate>): ResponseToValidate => ({
  method: 'GET',
  path: '/api/me',
  status: 200,
  headers: JSON_NO_STORE,
  body: USER,
  ...overrides,
})

describe('validateResponse', () => {
  const conforming = [
    { name: 'a valid body', input: response({}), operationId: 'getMe', documentedStatus: '200' },
    {
      name: 'the legacy user field names',
      input: response({ body: { userId: 'u1', emailId: 'ada@example.com', name: 'Ada' } }),
      operationId: 'getMe',
      documentedStatus: '200',
    },
    {
      name: 'a 503, checked against the documented 5XX range',
      input: response({ status: 503, body: { error: 'server_error', message: 'Try later.' } }),
      operationId: 'getMe',
      documentedStatus: '5XX',
    },
    {
      name: 'a 302 with Location and no body',
      input: response({
        path: '/api/auth/external/authorize?state=abcdefghijklmnop',
        status: 302,
        headers: {
          'cache-control': 'no-store',
          location: '/idp/authorize?state=x',
          'set-cookie': ['sso=b1; Path=/; HttpOnly; SameSite=Lax; Max-Age=600'],
        },
        body: '',
      }),
      operationId: 'authorizeExternal',
      documentedStatus: '302',
    },
    {
      name: 'a components/responses $ref with an integer header (Retry-After)',
      input: response({
        method: 'POST',
        path: '/api/auth/login',
        status: 429,
        headers: { ...JSON_NO_STORE, 'retry-after': '30' },
        body: { error: 'rate_limited', message: 'Slow down.', retry_after: 30 },
      }),
      operationId: 'login',
      documentedStatus: '429',
    },
    {
      name: 'a text/html body of the control document (no no-store outside /api)',
      input: response({
        path: '/idp/authorize',
        headers: { 'content-type': 'text/html' },
        body: '<form></form>',
      }),
      operationId: 'showIdpSignIn',
      documentedStatus: '200',
    },
    {
      name: 'a templated path with a query string',
      input: response({
        method: 'PATCH',
        path: '/api/process/steps/step-1?x=1',
        body: { id: 'step-1', title: 'Enrol', status: 'done', scheduled_at: null },
      }),
      operationId: 'updateProcessStep',
      documentedStatus: '200',
    },
  ] as const

  test.each(conforming)('passes $name', ({ input, operationId, documentedStatus }) => {
    expect(validateResponse(input)).toEqual({
      document: expect.any(String),
      operationId,
      documentedStatus,
      errors: [],
    })
  })

  const violating = [
    {
      name: 'a missing required field',
      input: response({ method: 'POST', path: '/api/auth/login', body: { ...SIGNED_IN, token: undefined } }),
      error: "body: must have required property 'token'",
    },
    {
      name: 'an undocumented status (and no default)',
      input: response({ path: '/__mock/clock', status: 404, body: {} }),
      error: 'status 404 is not documented for getClock',
    },
    {
      name: 'a missing no-store on /api/*',
      input: response({ headers: { 'content-type': 'application/json' } }),
      error: 'header Cache-Control: every /api/* response must carry no-store (got "")',
    },
    {
      name: 'a 302 without Location',
      input: response({
        path: '/api/auth/external/authorize',
        status: 302,
        headers: { 'cache-control': 'no-store' },
        body: undefined,
      }),
      error: 'header Location: required but missing',
    },
    {
      name: 'a body where no content is documented',
      input: response({
        path: '/api/auth/external/authorize',
        status: 302,
        headers: { 'cache-control': 'no-store', location: '/idp/authorize' },
        body: 'Found. Redirecting to /idp/authorize',
      }),
      error: 'body: must be empty (the response documents no content)',
    },
    {
      name: 'an undocumented media type',
      input: response({ headers: { 'content-type': 'text/plain', 'cache-control': 'no-store' }, body: 'hi' }),
      error: 'header Content-Type: text/plain is not documented (documented: application/json)',
    },
    {
      name: 'an empty body where JSON is documented',
      input: response({ body: undefined }),
      error: 'body: empty, but application/json content is documented',
    },
    {
      name: 'a wrong format',
      input: response({
        method: 'PATCH',
        path: '/api/process/steps/s1',
        body: { id: 's1', title: 'T', status: 'todo', scheduled_at: 'tomorrow' },
      }),
      error: 'body/scheduled_at: must match format "date-time"',
    },
    {
      name: 'a header of the wrong type',
      input: response({
        method: 'POST',
        path: '/api/auth/login',
        status: 429,
        headers: { ...JSON_NO_STORE, 'retry-after': 'soon' },
        body: { error: 'rate_limited', message: 'Slow down.', retry_after: 30 },
      }),
      error: 'header Retry-After "soon": must be integer',
    },
    {
      name: 'a request no document describes',
      input: response({ path: '/api/nope' }),
      error: 'GET /api/nope is not documented',
    },
  ] as const

  test.each(violating)('fails $name', ({ input, error }) => {
    expect(validateResponse(input).errors).toContain(error)
  })

  test('a status outside every documented key and range has no documented status', () => {
    const result = validateResponse(
      response({ method: 'POST', path: '/__mock/reset', status: 503, headers: {} }),
    )
    expect(result).toMatchObject({ document: 'control', operationId: 'resetMock', documentedStatus: null })
  })
})

describe('findOperation', () => {
  const [product] = loadProjectDocuments()
  const cases = [
    ['GET', '/api/me', { operationId: 'getMe', pathTemplate: '/api/me' }],
    [
      'patch',
      '/api/process/steps/abc?x=1',
      { operationId: 'updateProcessStep', pathTemplate: '/api/process/steps/{id}' },
    ],
    [
      'DELETE',
      'http://127.0.0.1:4000/api/_auth/session',
      { operationId: 'deleteSession', pathTemplate: '/api/_auth/session' },
    ],
    ['GET', '/api/process/steps/abc', null],
    ['PUT', '/api/me', null],
    ['GET', '/api/nope', null],
    ['GET', '/api/process/steps/a/b', null],
  ] as const
  test.each(cases)('%s %s', (method, path, expected) => {
    expect(findOperation(product!.doc, method, path)).toEqual(expected)
  })
})

describe('listDocumentedPairs', () => {
  test('lists every status of every operation of both documents', () => {
    const pairs = listDocumentedPairs()
    expect(pairs).toContainEqual({
      document: 'openapi',
      operationId: 'getMe',
      method: 'GET',
      path: '/api/me',
      status: '5XX',
    })
    expect(pairs).toContainEqual({
      document: 'control',
      operationId: 'submitIdpSignIn',
      method: 'POST',
      path: '/idp/authorize',
      status: '302',
    })
    expect(new Set(pairs.map((p) => p.document))).toEqual(new Set(['openapi', 'control']))
  })
})

describe('getDocumentedStatus', () => {
  const validator = createOpenApiValidator()
  test.each([
    ['getMe', 503, '5XX'],
    ['getMe', 401, '401'],
    ['getMe', '5XX', '5XX'],
    ['getMe', 'default', null],
    ['resetMock', 500, '500'],
    ['resetMock', 503, null],
    ['noSuchOperation', 200, null],
  ] as const)('%s %s → %s', (operationId, status, expected) => {
    expect(validator.getDocumentedStatus(operationId, status)?.documentedStatus ?? null).toBe(expected)
  })
})

// The safe answer (api/openapi.yaml, "A safe answer"): each planted fault below is a backend bug the suite must fail
// on, fed to the validator as the rewritten answer such a backend would send.
describe('cookies and caching', () => {
  const SESSION = 'sid=s3cret-value; Path=/; HttpOnly; SameSite=Lax; Max-Age=604800'
  const CLEARED = 'sid=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT'
  const signedIn = (cookies: string[] | undefined, overrides: Partial<ResponseToValidate> = {}) =>
    response({
      method: 'POST',
      path: '/api/auth/login',
      headers: { ...JSON_NO_STORE, ...(cookies && { 'set-cookie': cookies }) },
      body: SIGNED_IN,
      ...overrides,
    })
  const loggedOut = (cookies: string[] | undefined, headers: Record<string, string> = JSON_NO_STORE) =>
    response({
      method: 'DELETE',
      path: '/api/_auth/session',
      headers: { ...headers, ...(cookies && { 'set-cookie': cookies }) },
      body: { loggedOut: true },
    })

  const safe = [
    { name: 'a sign-in with the session cookie', input: signedIn([SESSION]) },
    { name: 'attribute names in any case', input: signedIn(['sid=v; path=/; httponly; samesite=strict']) },
    {
      name: 'a cookie for the app on another origin',
      input: signedIn(['sid=v; Path=/; HttpOnly; SameSite=None; Secure; Partitioned']),
    },
    {
      name: 'over https, a Secure __Host- cookie',
      input: signedIn(['__Host-sid=v; Path=/; HttpOnly; SameSite=Lax; Secure'], { secure: true }),
    },
    { name: 'a log-out that expires the cookie', input: loggedOut([CLEARED]) },
    {
      name: 'a log-out that expires it by an Expires date alone',
      input: loggedOut(['sid=; Path=/; HttpOnly; SameSite=Lax; Expires=Thu, 01 Jan 1970 00:00:00 GMT']),
    },
    {
      name: 'a reset code answered without a cookie',
      input: response({ method: 'POST', path: '/api/auth/otp/verify', body: { reset_token: 'rt' } }),
    },
  ] as const
  test.each(safe)('passes $name', ({ input }) => {
    expect(validateResponse(input).errors).toEqual([])
  })

  const faults = [
    {
      name: '(a) a session cookie without HttpOnly',
      input: signedIn(['sid=v; Path=/; SameSite=Lax']),
      error: 'header Set-Cookie of login 200: cookie sid (sid=…; Path=/; SameSite=Lax) lacks HttpOnly',
    },
    {
      name: '(b) a session cookie without SameSite',
      input: signedIn(['sid=v; Path=/; HttpOnly']),
      error: 'header Set-Cookie of login 200: cookie sid (sid=…; Path=/; HttpOnly) lacks SameSite',
    },
    {
      name: '(c) a log-out that leaves the session cookie in place',
      input: loggedOut(undefined),
      error:
        'header Set-Cookie of deleteSession 200: required but missing (the answer ends a session, so it must expire the session cookie)',
    },
    {
      name: 'a log-out that sets the cookie again instead of expiring it',
      input: loggedOut([SESSION]),
      error:
        'header Set-Cookie of deleteSession 200: cookie sid (sid=…; Path=/; HttpOnly; SameSite=Lax; Max-Age=604800) lacks an expiry (Max-Age=0 or an Expires in the past: the answer ends the session)',
    },
    {
      name: 'a log-out whose Expires is in the future',
      input: loggedOut(['sid=; Path=/; HttpOnly; SameSite=Lax; Expires=Fri, 01 Jan 9999 00:00:00 GMT']),
      error:
        'header Set-Cookie of deleteSession 200: cookie sid (sid=…; Path=/; HttpOnly; SameSite=Lax; Expires=Fri, 01 Jan 9999 00:00:00 GMT) lacks an expiry (Max-Age=0 or an Expires in the past: the answer ends the session)',
    },
    {
      name: 'a sign-in without its cookie',
      input: signedIn(undefined),
      error: 'header Set-Cookie of login 200: required but missing (the answer must set its cookie)',
    },
    {
      name: 'a code sign-in without its cookie (the body has a token)',
      input: response({ method: 'POST', path: '/api/auth/otp/verify', body: SIGNED_IN }),
      error: 'header Set-Cookie of verifyOtp 200: required but missing (the answer must set its cookie)',
    },
    {
      name: 'a cookie without Path=/',
      input: signedIn(['sid=v; Path=/api; HttpOnly; SameSite=Lax']),
      error:
        'header Set-Cookie of login 200: cookie sid (sid=…; Path=/api; HttpOnly; SameSite=Lax) lacks Path=/',
    },
    {
      name: 'over https, a cookie without Secure',
      input: signedIn([SESSION], { secure: true }),
      error: `header Set-Cookie of login 200: cookie sid (sid=…; Path=/; HttpOnly; SameSite=Lax; Max-Age=604800) lacks Secure (the request came over https)`,
    },
    {
      name: 'a request URL with https, a cookie without Secure',
      input: signedIn([SESSION], { path: 'https://api.example/api/auth/login' }),
      error: `header Set-Cookie of login 200: cookie sid (sid=…; Path=/; HttpOnly; SameSite=Lax; Max-Age=604800) lacks Secure (the request came over https)`,
    },
    {
      name: 'a __Host- cookie without Secure',
      input: signedIn(['__Host-sid=v; Path=/; HttpOnly; SameSite=Lax']),
      error:
        'header Set-Cookie of login 200: cookie __Host-sid (__Host-sid=…; Path=/; HttpOnly; SameSite=Lax) lacks Secure (a __Host- cookie needs it)',
    },
    {
      name: 'a cookie of another name',
      input: signedIn(['session=v; Path=/; HttpOnly; SameSite=Lax']),
      error:
        'header Set-Cookie of login 200: cookie session (session=…; Path=/; HttpOnly; SameSite=Lax) is not the documented cookie (its pattern)',
    },
    {
      name: 'a cookie on an answer that documents none (an error that still clears it)',
      input: response({
        method: 'DELETE',
        path: '/api/_auth/session',
        status: 403,
        headers: { ...JSON_NO_STORE, 'set-cookie': [CLEARED] },
        body: { error: 'cross_site_request', message: 'No.' },
      }),
      error: 'header Set-Cookie of deleteSession 403: sets sid, but the documented response sets no cookie',
    },
    {
      name: 'a token answer without no-store',
      input: signedIn([SESSION], {
        headers: { 'content-type': 'application/json', 'set-cookie': [SESSION] },
      }),
      error: 'header Cache-Control: required but missing',
    },
    {
      name: 'a mailbox answer with codes, cacheable',
      input: response({
        path: '/__mock/mailbox',
        headers: { 'content-type': 'application/json', 'cache-control': 'private, max-age=60' },
        body: {
          messages: [
            {
              to: 'a@b.c',
              subject: 'Code',
              purpose: 'login',
              code: '123456',
              sent_at: '2026-01-01T00:00:00Z',
            },
          ],
        },
      }),
      error:
        'header Cache-Control of getMailbox 200: the answer carries a code (body field code), so it must say no-store (got "private, max-age=60")',
    },
    {
      name: 'a redirect with an authorization code, cacheable',
      input: response({
        method: 'POST',
        path: '/idp/authorize',
        status: 302,
        headers: { location: 'http://127.0.0.1/callback?code=c1&state=s' },
        body: undefined,
      }),
      error:
        'header Cache-Control of submitIdpSignIn 302: the answer carries a code (Location query code), so it must say no-store (got "")',
    },
  ] as const
  test.each(faults)('fails $name', ({ input, error }) => {
    expect(validateResponse(input).errors).toContain(error)
  })

  test('checks each of several Set-Cookie values, and never prints a cookie’s value', () => {
    const { errors } = validateResponse(signedIn([SESSION, 'sid=v2; Path=/; HttpOnly']))
    expect(errors).toEqual([
      'header Set-Cookie of login 200: cookie sid (sid=…; Path=/; HttpOnly) lacks SameSite',
    ])
    expect(errors.join('\n')).not.toContain('s3cret')
  })

  test('judges an Expires date by the validator’s clock', () => {
    const expires = 'sid=; Path=/; HttpOnly; SameSite=Lax; Expires=Wed, 01 Jan 2025 00:00:00 GMT'
    const before = createOpenApiValidator(undefined, { now: () => Date.parse('2024-06-01T00:00:00Z') })
    const after = createOpenApiValidator(undefined, { now: () => Date.parse('2025-06-01T00:00:00Z') })
    expect(before.validateResponse(loggedOut([expires])).errors).toHaveLength(1)
    expect(after.validateResponse(loggedOut([expires])).errors).toEqual([])
  })
})
