// Purges what can no longer change an answer, so the state and the --data file stay the size of what is live:
// expired codes, tokens and sessions, and accounts never verified. Figures and the answers each rule keeps the
// same: docs/security/hardening.md.
import { MAX_UNVERIFIED_ACCOUNTS, PENDING_PASSWORD_MS } from '../../shared/constants.ts'
import { codeLockKey } from './codes.ts'
import type { DomainContext } from './context.ts'

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
  let removed = await ctx.decoys.purge(now, ctx.config.codeCooldownMs)
  // Guess logs and pending passwords are counters, not records: dropping them does not count as removed records.
  await ctx.guesses.purge(now)
  await ctx.pendingPasswords.purge()
  removed += await ctx.store.codes.purgeDone(now, ctx.config.codeCooldownMs)
  removed += await ctx.store.resetTokens.purgeDone(now)
  removed += await ctx.store.sessions.purgeEnded(now - getSessionRetentionMs(ctx))
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
  const unverified = await ctx.store.users.listUnverified(keep)
  const excess = Math.max(0, unverified.length - max)
  const stale = unverified.filter(
    (user, index) => index < excess || user.createdAt + PENDING_PASSWORD_MS <= now,
  )
  for (const user of stale) {
    // Under the sign-up lock: a sign-up of the address waits, and a code it wrote keeps the account.
    removed += await ctx.locks.run(codeLockKey(user.email, 'signup'), () =>
      ctx.store.users.deleteUnverified(user.id),
    )
  }
  return removed
}
