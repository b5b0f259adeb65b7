// The authorization step of the pipeline (pipeline/dispatch.ts): the bearer a request carries and what it proves.
// No operation is named here: each document's `security` and `x-optional-bearer` say what each one needs.
import type { AnyOutput, AuthState, RequestFacts } from './types.ts'
import type { BearerPolicy } from './openapi-docs.ts'

/** The token of an `Authorization: Bearer <token>` header; undefined when there is none. */
export function readBearer(headers: Record<string, string | undefined>): string | undefined {
  return headers.authorization?.match(/^Bearer\s+(\S+)$/i)?.[1]
}

/**
 * Authenticates the bearer, when one was sent, into `request.auth`; returns the 401 the policy gives, or null when
 * the call may go on.
 */
export async function authorize(
  policy: BearerPolicy,
  request: RequestFacts,
  bearer: string | undefined,
  authenticate: (token: string) => Promise<AuthState>,
): Promise<AnyOutput | null> {
  if (bearer !== undefined) request.auth = await authenticate(bearer)
  return refuseUnauthenticated(policy, request.auth)
}

const UNAUTHORIZED_MESSAGES = {
  token_expired: 'The access token has expired.',
  token_invalid: 'The access token is invalid.',
  session_revoked: 'This session has ended. Please sign in again.',
} as const

/**
 * The 401 of a call whose bearer the policy refuses: a bad one where it is required or checked, a missing one where
 * it is required; null when the call may go on.
 */
export function refuseUnauthenticated(policy: BearerPolicy, auth: AuthState): AnyOutput | null {
  if (auth.kind === 'rejected' && (policy === 'required' || policy === 'checked')) {
    return {
      status: 401,
      body: { error: auth.code, message: UNAUTHORIZED_MESSAGES[auth.code] },
      headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${auth.code}"` },
    }
  }
  if (auth.kind === 'none' && policy === 'required') {
    return {
      status: 401,
      body: { message: 'Sign in to continue.' },
      headers: { 'www-authenticate': 'Bearer' },
    }
  }
  return null
}
