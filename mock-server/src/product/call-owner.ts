// The account a call belongs to, for scenario scoping and the journal (pipeline/scenario-step.ts): the body's
// address, else the account of a bearer token this server signed, of a refresh or reset token, or of the cookie.
import { readSessionCookie } from '../pipeline/cookies.ts'
import { hashToken } from '../shared/crypto.ts'
import { normalizeEmail } from '../shared/email.ts'
import type { DomainContext } from './domain/context.ts'
import { getSessionWithUserByCookie } from './domain/sessions.ts'
import { getSignedAccessTokenSubject } from './domain/tokens.ts'
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
  // A token in the body names the account the call acts on, whatever bearer comes with it (updatePassword with a
  // reset_token ignores its bearer). As few reads as the store allows: in mock mode they come before each call's own
  // (docs/benchmarks.md). Only refreshToken's body has a refresh_token (every body is of its schema by now).
  if (typeof body.refresh_token === 'string') {
    const found = await domain.store.refreshTokens.byHashWithSession(hashToken(body.refresh_token))
    return emailOf(domain, found?.session?.userId)
  }
  if (typeof body.reset_token === 'string')
    return emailOf(domain, (await domain.store.resetTokens.byHash(hashToken(body.reset_token)))?.userId)
  if (bearer) return emailOf(domain, await getSignedAccessTokenSubject(domain, bearer))
  const cookie = readSessionCookie(input.request.cookies, input.request.secure)
  return (await getSessionWithUserByCookie(domain, cookie))?.user?.email
}

async function emailOf(
  domain: DomainContext,
  userId: string | null | undefined,
): Promise<string | undefined> {
  return userId ? (await getUserById(domain, userId))?.email : undefined
}
