// Starting a session: cookie, access token, first refresh token and service token, in one answer.
import type { components } from '#api/openapi.gen.ts'
import type { DomainContext } from '../domain/context.ts'
import { createSession, type NewSession, revokeSession } from '../domain/sessions.ts'
import type { UserRecord } from '../storage/records.ts'
import { issueRefreshToken, signAccessToken } from '../domain/tokens.ts'
import { isPasswordCurrent } from '../domain/users.ts'

export function toPublicUser(user: UserRecord): components['schemas']['User'] {
  return { id: user.id, email: user.email, name: user.name }
}

export async function signIn(ctx: DomainContext, user: UserRecord) {
  return answerFor(ctx, user, await createSession(ctx, user.id))
}

/**
 * A sign-in by password: null when the password changed while it was checked. The check runs once the session
 * exists, so a password change either sweeps the session or is caught here (docs/security/hardening.md).
 */
export async function signInWithPassword(ctx: DomainContext, user: UserRecord, checkedHash: string) {
  const started = await createSession(ctx, user.id)
  if (await isPasswordCurrent(ctx, user.id, checkedHash)) return answerFor(ctx, user, started)
  await revokeSession(ctx, started.session.id, 'password_changed')
  return null
}

async function answerFor(
  ctx: DomainContext,
  user: UserRecord,
  { session, cookie, serviceToken }: NewSession,
) {
  const body: components['schemas']['SignedInBody'] = {
    user: toPublicUser(user),
    token: await signAccessToken(ctx, user.id, session.id),
    refresh_token: await issueRefreshToken(ctx, session.id),
    service_token: serviceToken,
  }
  const maxAgeSeconds = Math.floor((session.expiresAt - session.createdAt) / 1000)
  return { status: 200 as const, body, cookies: [{ name: 'session' as const, value: cookie, maxAgeSeconds }] }
}
