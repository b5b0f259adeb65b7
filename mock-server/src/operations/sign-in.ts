// Starting a session: cookie, access token, first refresh token and service token, in one answer.
import type { components } from '#contracts/openapi.gen.ts'
import type { DomainContext } from '../domain/context.ts'
import { createSession } from '../domain/sessions.ts'
import type { UserRecord } from '../domain/store.ts'
import { issueRefreshToken, signAccessToken } from '../domain/tokens.ts'

export function toPublicUser(user: UserRecord): components['schemas']['User'] {
  return { id: user.id, email: user.email, name: user.name }
}

export async function signIn(ctx: DomainContext, user: UserRecord) {
  const { session, cookie, serviceToken } = await createSession(ctx, user.id)
  const body: components['schemas']['SignedInBody'] = {
    user: toPublicUser(user),
    token: await signAccessToken(ctx, user.id, session.id),
    refresh_token: await issueRefreshToken(ctx, session.id),
    service_token: serviceToken,
  }
  const maxAgeSeconds = Math.floor((session.expiresAt - session.createdAt) / 1000)
  return { status: 200 as const, body, cookies: [{ name: 'session' as const, value: cookie, maxAgeSeconds }] }
}
