// The bearer policy is the contract's (openapi.yaml: `security` and `x-optional-bearer`), and the authorize step of
// the pipeline applies only that: no operation is named in it.
import { describe, expect, test } from 'vitest'
import type { AuthState, RequestFacts } from './types.ts'
import { authorize, readBearer, refuseUnauthenticated } from './authorize.ts'
import { createRoutes, getBearerPolicy, type BearerPolicy } from './openapi-docs.ts'

const REJECTED: AuthState = { kind: 'rejected', code: 'token_expired' }

function policyOf(operationId: string): BearerPolicy {
  const route = createRoutes('api').find((candidate) => candidate.operationId === operationId)
  if (!route) throw new Error(`Failed to find the route of ${operationId}.`)
  return route.bearer
}

function facts(): RequestFacts {
  return {
    method: 'POST',
    path: '/api/x',
    headers: {},
    cookies: {},
    ip: '127.0.0.1',
    secure: false,
    origin: 'http://127.0.0.1:4010',
    fromCorsOrigin: false,
    auth: { kind: 'none' },
  }
}

describe('the bearer policy read from the contract', () => {
  test.each([
    ['updatePassword', 'checked'],
    ['deleteSession', 'ignored'],
    ['getMe', 'required'],
    ['login', 'none'],
  ] as const)('%s: %s', (operationId, policy) => {
    expect(policyOf(operationId)).toBe(policy)
  })

  test('an optional bearer is checked only with x-optional-bearer.checked: true', () => {
    const optional = [['bearerAuth'], []]
    expect(getBearerPolicy(optional, { checked: true, 'omitted-when-body-has': 'reset_token' })).toBe(
      'checked',
    )
    expect(getBearerPolicy(optional, { checked: false })).toBe('ignored')
    expect(getBearerPolicy(optional, undefined)).toBe('ignored')
    expect(getBearerPolicy([['bearerAuth']], undefined)).toBe('required')
    expect(getBearerPolicy([[]], { checked: true })).toBe('none')
    expect(getBearerPolicy([], undefined)).toBe('none')
  })
})

describe('the authorize step', () => {
  const rejectAll = async (): Promise<AuthState> => REJECTED

  test('a route with a checked optional bearer refuses a rejected bearer with a 401 naming why', async () => {
    const request = facts()
    const refusal = await authorize(policyOf('updatePassword'), request, 'bad-token', rejectAll)
    expect(request.auth).toEqual(REJECTED)
    expect(refusal).toEqual({
      status: 401,
      body: { error: 'token_expired', message: 'The access token has expired.' },
      headers: { 'www-authenticate': 'Bearer error="invalid_token", error_description="token_expired"' },
    })
  })

  test('a route with an ignored optional bearer lets a rejected bearer through, as if none were sent', async () => {
    const request = facts()
    expect(await authorize(policyOf('deleteSession'), request, 'bad-token', rejectAll)).toBeNull()
    expect(request.auth).toEqual(REJECTED)
  })

  test('without a bearer, only a required one is refused', async () => {
    const refuse = async (): Promise<AuthState> => {
      throw new Error('Failed: nothing to authenticate.')
    }
    expect(await authorize('required', facts(), undefined, refuse)).toEqual({
      status: 401,
      body: { message: 'Sign in to continue.' },
      headers: { 'www-authenticate': 'Bearer' },
    })
    for (const policy of ['checked', 'ignored', 'none'] as const)
      expect(await authorize(policy, facts(), undefined, refuse)).toBeNull()
  })

  test('a rejected bearer is refused where it is required or checked, never where it is ignored or unknown', () => {
    expect(refuseUnauthenticated('required', REJECTED)?.status).toBe(401)
    expect(refuseUnauthenticated('checked', REJECTED)?.status).toBe(401)
    expect(refuseUnauthenticated('ignored', REJECTED)).toBeNull()
    expect(refuseUnauthenticated('none', REJECTED)).toBeNull()
    expect(refuseUnauthenticated('required', { kind: 'valid', userId: 'u', sessionId: 's' })).toBeNull()
  })

  test('the bearer is the token of an Authorization: Bearer header, any case', () => {
    expect(readBearer({ authorization: 'bearer abc.def' })).toBe('abc.def')
    expect(readBearer({ authorization: 'Basic abc' })).toBeUndefined()
    expect(readBearer({})).toBeUndefined()
  })

  test('the bearer is the whole header: the scheme first, then one or more spaces, then one token and nothing after', () => {
    expect(readBearer({ authorization: 'Bearer \t abc.def' })).toBe('abc.def')
    // A header that only contains the scheme somewhere, or carries more than one token, sends no bearer at all.
    expect(readBearer({ authorization: 'NotBearer abc.def' })).toBeUndefined()
    expect(readBearer({ authorization: 'Bearer abc.def ghi' })).toBeUndefined()
  })
})
