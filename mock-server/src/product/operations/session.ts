// The `session` tag: the cookie session and the token refresh.
import type { operations } from '#api/openapi.gen.ts'
import { readSessionCookie } from '../../pipeline/cookies.ts'
import { isCrossSite } from '../../pipeline/cross-site.ts'
import { getSessionByCookie, getSessionWithUserByCookie, revokeSession } from '../domain/sessions.ts'
import { rotateRefreshToken } from '../domain/tokens.ts'
import type { ProductContext } from './context.ts'
import { toPublicUser } from './sign-in.ts'
import type { OperationTable } from '../../pipeline/types.ts'

type SessionOperations = Pick<operations, 'getSession' | 'deleteSession' | 'refreshToken'>

const REFRESH_MESSAGES = {
  refresh_invalid: 'The refresh token is invalid.',
  refresh_expired: 'The session has expired. Please sign in again.',
  refresh_reused: 'The refresh token was already used; the session has been ended.',
} as const

export function createSessionOperations({ domain }: ProductContext): OperationTable<SessionOperations> {
  return {
    async getSession({ request }) {
      const found = await getSessionWithUserByCookie(
        domain,
        readSessionCookie(request.cookies, request.secure),
      )
      const { session, user } = found ?? { session: null, user: null }
      if (!session || !user) return { status: 200, body: {} }
      return {
        status: 200,
        body: { user: toPublicUser(user), loggedInAt: new Date(session.createdAt).toISOString() },
      }
    },
    async deleteSession({ request }) {
      // The app on a --cors-origin signs out from its own origin, not this server's
      // (docs/decisions/020-deploying-on-two-origins.md); any other origin is refused as before.
      if (!request.fromCorsOrigin && isCrossSite(request.headers, request.origin)) {
        return {
          status: 403,
          body: { error: 'cross_site_request', message: 'Sign out from this site only.' },
        }
      }
      const session = await getSessionByCookie(domain, readSessionCookie(request.cookies, request.secure))
      if (session) await revokeSession(domain, session.id, 'logout')
      if (request.auth.kind === 'valid') await revokeSession(domain, request.auth.sessionId, 'logout')
      return { status: 200, body: { loggedOut: true }, cookies: [{ name: 'session', value: null }] }
    },
    async refreshToken({ body }) {
      const outcome = await rotateRefreshToken(domain, body.refresh_token)
      if (!outcome.ok) {
        return {
          status: 401,
          body: { success: false, error: outcome.code, message: REFRESH_MESSAGES[outcome.code] },
        }
      }
      return { status: 200, body: { success: true, ...outcome.pair } }
    },
  }
}
