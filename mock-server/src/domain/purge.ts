// Purges what can no longer change an answer, so the state (and the --data file) stays the size of what is
// live: expired codes and decoys, expired or used reset tokens and external sign-in codes, and ended sessions
// with their refresh tokens once every access token they issued has expired. Figures and the answers each rule
// keeps the same: docs/security/hardening.md.
import type { DomainContext } from './context.ts'
import type { CodeFields } from './store.ts'

/** How long an ended session is kept: past it, every access token it issued has expired (1 s for rounding). */
export function getSessionRetentionMs(ctx: DomainContext): number {
  return ctx.config.accessTokenTtlMs + 1_000
}

/** Removes what has expired by the clock's now; returns how many records went. */
export async function purgeExpired(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now()
  // A code is kept while it still starts a cooldown, so a purge never lets a code be sent sooner.
  const codeDone = (code: CodeFields) =>
    code.expiresAt <= now && code.sentAt + ctx.config.codeCooldownMs <= now
  let removed = ctx.decoys.purge(codeDone)
  // Guess logs are memory only: dropping them changes no file, so they do not count as removed records.
  ctx.guesses.purge(now)
  ctx.pendingPasswords.purge()
  for (const code of ctx.store.codes.findMany((q) => q.where(codeDone))) {
    removed += await ctx.locks.run(`code:${code.email}:${code.purpose}`, async () =>
      Number(ctx.store.codes.delete((q) => q.where({ id: code.id }).where(codeDone)) !== undefined),
    )
  }
  const tokenDone = (token: { expiresAt: number; usedAt: number | null }) =>
    token.expiresAt <= now || token.usedAt !== null
  removed += ctx.store.resetTokens.deleteMany((q) => q.where(tokenDone)).length
  removed += ctx.store.externalCodes.deleteMany((q) => q.where(tokenDone)).length
  const retention = getSessionRetentionMs(ctx)
  const sessionDone = (session: { expiresAt: number; revokedAt: number | null }) =>
    Math.min(session.expiresAt, session.revokedAt ?? Infinity) + retention <= now
  for (const session of ctx.store.sessions.findMany((q) => q.where(sessionDone))) {
    removed += await ctx.locks.run(`family:${session.id}`, async () => {
      const tokens = ctx.store.refreshTokens.deleteMany((q) => q.where({ sessionId: session.id }))
      ctx.store.sessions.delete((q) => q.where({ id: session.id }))
      return 1 + tokens.length
    })
  }
  return removed
}
