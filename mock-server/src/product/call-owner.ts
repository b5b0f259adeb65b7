// The account a call belongs to, for scenario scoping and the journal (pipeline/scenario-step.ts): the body's
// address, else the account of a bearer token this server signed, of a refresh or reset token, or of the cookie.
import { readSessionCookie } from '../pipeline/cookies.ts'
import { hashToken } from '../shared/crypto.ts'
import { normalizeEmail } from '../shared/email.ts'
import type { DomainContext } from './domain/context.ts'
import { getSessionByCookie } from './domain/sessions.ts'
import { findRefreshToken, getSignedAccessTokenSubject } from './domain/tokens.ts'
import { getUserById } from './domain/users.ts'

/** Undefined when the call belongs to no account; never an account an unsigned token merely names. */
export async function resolveEmail(
  domain: DomainContext,
  input: { body: unknown; request: { cookies: Record<string, string | undefined>; secure: boolean } },
  bearer: string | undefined,
): Promise<string | undefined> {
  const body = (typeof input.body === 'object' && input.body !== null ? input.body : {}) as Record<
    string,
    unknown
  >
  if (typeof body.email === 'string') return normalizeEmail(body.email)
  const userId = await (async () => {
    if (bearer) return getSignedAccessTokenSubject(domain, bearer)
    // Only refreshToken's body has a refresh_token (every body is of its schema by now, no other field allowed).
    if (typeof body.refresh_token === 'string') {
      const record = await findRefreshToken(domain, body.refresh_token)
      return record ? (await domain.store.sessions.byId(record.sessionId))?.userId : undefined
    }
    if (typeof body.reset_token === 'string')
      return (await domain.store.resetTokens.byHash(hashToken(body.reset_token)))?.userId
    const cookie = readSessionCookie(input.request.cookies, input.request.secure)
    return (await getSessionByCookie(domain, cookie))?.userId
  })()
  return userId ? (await getUserById(domain, userId))?.email : undefined
}
