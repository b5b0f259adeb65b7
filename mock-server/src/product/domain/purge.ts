// Purges what can no longer change an answer, so the state and the --data file stay the size of what is live:
// expired codes, tokens and sessions, and accounts never verified. Figures and the answers each rule keeps the
// same: docs/security/hardening.md.
import { MAX_UNVERIFIED_ACCOUNTS, PENDING_PASSWORD_MS } from '../../shared/constants.ts'
import { codeLockKey } from './codes.ts'
import type { DomainContext } from './context.ts'
import type { CodeFields } from './store.ts'

export interface PurgeOptions {
  /** Addresses whose unverified account stays (the development seeds, meant to stay unverified). */
  keepUnverified?: ReadonlySet<string>
  /** Accounts never verified kept at most, the oldest going first (default MAX_UNVERIFIED_ACCOUNTS). */
  maxUnverified?: number
}

/** How long an ended session is kept: past it, every access token it issued has expired (1 s for rounding). */
export function getSessionRetentionMs(ctx: DomainContext): number {
  return ctx.config.accessTokenTtlMs + 1_000
}

/** Removes what has expired by the clock's now; returns how many records went. */
export async function purgeExpired(ctx: DomainContext, options: PurgeOptions = {}): Promise<number> {
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
  removed += await purgeUnverified(
    ctx,
    now,
    options.keepUnverified ?? new Set(),
    options.maxUnverified ?? MAX_UNVERIFIED_ACCOUNTS,
  )
  return removed
}

/**
 * Accounts never verified go PENDING_PASSWORD_MS after creation, and past `max` the oldest go, so sign-ups from
 * many addresses cannot grow the store for a week. A code still alive keeps its account.
 */
async function purgeUnverified(
  ctx: DomainContext,
  now: number,
  keep: ReadonlySet<string>,
  max: number,
): Promise<number> {
  let removed = 0
  const unverified = ctx.store.users
    .findMany((q) => q.where((user) => !user.verified && !keep.has(user.email)))
    .sort((a, b) => a.createdAt - b.createdAt)
  const excess = Math.max(0, unverified.length - max)
  const stale = unverified.filter(
    (user, index) => index < excess || user.createdAt + PENDING_PASSWORD_MS <= now,
  )
  for (const user of stale) {
    removed += await ctx.locks.run(codeLockKey(user.email, 'signup'), async () => {
      if (ctx.store.codes.findFirst((q) => q.where({ email: user.email }))) return 0
      const gone = ctx.store.users.delete((q) => q.where({ id: user.id }).where({ verified: false }))
      if (!gone) return 0
      const steps = ctx.store.steps.deleteMany((q) => q.where({ userId: user.id })).length
      const resets = ctx.store.resetTokens.deleteMany((q) => q.where({ userId: user.id })).length
      return 1 + steps + resets
    })
  }
  return removed
}
