// Sessions: one per sign-in, named by an HttpOnly cookie, owning one refresh family. Revoking a
// session ends its cookie, its refresh tokens and its access tokens at once.
import type { DomainContext } from './context.ts'
import { hashToken } from '../../shared/crypto.ts'
import type { SessionWithUser } from '../storage/port.ts'
import type { SessionRecord } from '../storage/records.ts'

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
export async function getSessionByCookie(
  ctx: DomainContext,
  cookie: string | undefined,
): Promise<SessionRecord | null> {
  if (!cookie) return null
  const session = await ctx.store.sessions.byCookieHash(hashToken(cookie))
  if (!session || session.revokedAt !== null || session.expiresAt <= ctx.clock.now()) return null
  return session
}

/** The live session a cookie names with its account (null when gone), read in one step; null without one. */
export async function getSessionWithUserByCookie(
  ctx: DomainContext,
  cookie: string | undefined,
): Promise<SessionWithUser | null> {
  if (!cookie) return null
  const found = await ctx.store.sessions.byCookieHashWithUser(hashToken(cookie))
  if (!found || found.session.revokedAt !== null || found.session.expiresAt <= ctx.clock.now()) return null
  return found
}

/** Ends a session, its cookie, its refresh tokens and its access tokens; a session already ended keeps its reason. */
export async function revokeSession(ctx: DomainContext, sessionId: string, reason: string): Promise<void> {
  await ctx.store.sessions.revoke(sessionId, ctx.clock.now(), reason)
}

/** Ends every live session of a user but `keepSessionId`. */
export async function revokeUserSessions(
  ctx: DomainContext,
  userId: string,
  reason: string,
  keepSessionId?: string,
): Promise<void> {
  const live = await ctx.store.sessions.listLive(userId)
  for (const session of live) {
    if (session.id !== keepSessionId) await revokeSession(ctx, session.id, reason)
  }
}
