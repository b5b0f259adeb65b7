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
