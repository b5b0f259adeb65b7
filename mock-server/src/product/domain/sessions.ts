// Sessions: one per sign-in, named by an HttpOnly cookie, owning one refresh family. Revoking a
// session ends its cookie, its refresh tokens and its access tokens at once.
import type { DomainContext } from './context.ts'
import { hashToken } from '../../shared/crypto.ts'
import type { SessionRecord } from './store.ts'

export interface NewSession {
  session: SessionRecord
  cookie: string
  serviceToken: string
}

export async function createSession(ctx: DomainContext, userId: string): Promise<NewSession> {
  const cookie = ctx.random.token()
  const serviceToken = ctx.random.token()
  const now = ctx.clock.now()
  const session = await ctx.store.sessions.create({
    id: ctx.random.id(),
    userId,
    cookieHash: hashToken(cookie),
    serviceTokenHash: hashToken(serviceToken),
    createdAt: now,
    expiresAt: now + ctx.config.refreshTokenTtlMs,
    revokedAt: null,
    revokedReason: null,
  })
  return { session, cookie, serviceToken }
}

/** The live session a cookie names, or null. */
export function getSessionByCookie(ctx: DomainContext, cookie: string | undefined): SessionRecord | null {
  if (!cookie) return null
  const cookieHash = hashToken(cookie)
  const session = ctx.store.sessions.findBy('cookieHash', cookieHash)
  if (!session || session.revokedAt !== null || session.expiresAt <= ctx.clock.now()) return null
  return session
}

export async function revokeSession(ctx: DomainContext, sessionId: string, reason: string): Promise<void> {
  const now = ctx.clock.now()
  await ctx.store.sessions.update((q) => q.where({ id: sessionId, revokedAt: null }), {
    data(draft) {
      draft.revokedAt = now
      draft.revokedReason = reason
    },
  })
  // A revoked family's tokens can never be used again: drop the sealed pairs at once.
  await ctx.store.refreshTokens.updateMany((q) => q.where({ sessionId }), {
    data(draft) {
      draft.graceBox = null
    },
  })
}

/** Ends every live session of a user but `keepSessionId`. */
export async function revokeUserSessions(
  ctx: DomainContext,
  userId: string,
  reason: string,
  keepSessionId?: string,
): Promise<void> {
  const live = ctx.store.sessions.findMany((q) => q.where({ userId, revokedAt: null }))
  for (const session of live) {
    if (session.id !== keepSessionId) await revokeSession(ctx, session.id, reason)
  }
}
