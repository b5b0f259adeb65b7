// One-time codes and reset tokens: 6 digits, stored as keyed hashes, short-lived and single use.
// Wrong codes count per (address, purpose) across resends (product/domain/guess-log.ts), so resending buys no
// guesses. An address with no code behaves exactly like one with a code (docs/security/codes.md).
import type { DomainContext } from './context.ts'
import { normalizeEmail } from '../../shared/email.ts'
import { createNumericCode, hashToken, keyedHash, safeEqual } from '../../shared/crypto.ts'
import { CODE_DIGITS, RESET_TOKEN_TTL_MS } from '../../shared/constants.ts'
import type { CodeFields, CodeRecord } from '../storage/records.ts'

export type Purpose = CodeRecord['purpose']

export type CodeCheck =
  | { ok: true; signup: CodeFields['signup'] }
  | { ok: false; reason: 'invalid_code'; attemptsLeft: number }
  | { ok: false; reason: 'too_many_attempts' }
  | { ok: false; reason: 'guess_limit'; retryAfter: number }

/** Seconds until another code may be sent to this address for this purpose (0 when it may now). */
export async function getCooldownSeconds(
  ctx: DomainContext,
  email: string,
  purpose: Purpose,
): Promise<number> {
  const latest = await ctx.store.codes.latest(normalizeEmail(email), purpose)
  if (!latest) return 0
  return Math.max(0, Math.ceil((latest.sentAt + ctx.config.codeCooldownMs - ctx.clock.now()) / 1000))
}

/**
 * Issues a new code, superseding the previous one. Returns the code in clear for the mailer, or null
 * for a decoy (an address without an account gets a code nobody can read, so it answers alike).
 */
export async function issueCode(ctx: DomainContext, email: string, purpose: Purpose, deliver: boolean) {
  const address = normalizeEmail(email)
  return ctx.locks.run(codeLockKey(address, purpose), async () => {
    const code = await writeCode(ctx, address, purpose, null)
    return deliver ? code : null
  })
}

/** The lock a code's issue, check and sign-up run under, per address and purpose. */
export const codeLockKey = (address: string, purpose: Purpose) => `code:${address}:${purpose}`

/** Writes a new code (and supersedes the live one); the caller holds `codeLockKey`. Returns it in clear. */
export async function writeCode(
  ctx: DomainContext,
  address: string,
  purpose: Purpose,
  signup: CodeFields['signup'],
): Promise<string> {
  const now = ctx.clock.now()
  const code = createNumericCode(CODE_DIGITS)
  await ctx.store.codes.issue({
    id: ctx.random.id(),
    email: address,
    purpose,
    hash: keyedHash(ctx.config.secret, address, purpose, code),
    sentAt: now,
    expiresAt: now + ctx.config.codeTtlMs,
    attempts: 0,
    usedAt: null,
    burned: false,
    supersededAt: null,
    signup,
  })
  return code
}

/** The codes of an address and purpose that can still be used (whether superseded or burned or not). */
export async function getUnusedCodes(
  ctx: DomainContext,
  address: string,
  purpose: Purpose,
): Promise<CodeRecord[]> {
  return ctx.store.codes.listUnused(address, purpose, ctx.clock.now())
}

/**
 * Checks a code and, when right, consumes it: of concurrent right answers exactly one succeeds. Past the
 * per-address ceiling of wrong guesses nothing is checked, not even a right code, until the window moves on.
 */
export async function consumeCode(
  ctx: DomainContext,
  email: string,
  purpose: Purpose,
  code: string,
  /**
   * The client signed in to this account lately (lockout.isKnown): its checks neither meet nor feed the ceiling of
   * wrong codes, so guesses from elsewhere cannot lock the owner out (docs/security/codes.md). Its wrong codes still
   * burn the code after five, and the per-client limit still holds.
   */
  { knownClient = false }: { knownClient?: boolean } = {},
): Promise<CodeCheck> {
  const address = normalizeEmail(email)
  return ctx.locks.run(codeLockKey(address, purpose), async () => {
    const now = ctx.clock.now()
    const wait = knownClient ? 0 : await ctx.guesses.wait(address, purpose, now)
    if (wait > 0) return { ok: false, reason: 'guess_limit', retryAfter: wait } as const
    const current = await ctx.store.codes.latest(address, purpose)
    const record = current ?? (await ctx.decoys.get(address, purpose)) ?? createDecoy(ctx, address, purpose)
    if (record.burned) return { ok: false, reason: 'too_many_attempts' } as const
    const right = safeEqual(record.hash, keyedHash(ctx.config.secret, address, purpose, code))
    if (current && right && (await ctx.store.codes.use(current.id, now)))
      return { ok: true, signup: current.signup } as const
    // A right code that could not be used (used, superseded, expired) counts as a wrong one.
    const outcome = current
      ? await ctx.store.codes.recordWrong(current.id, ctx.config.codeMaxAttempts)
      : await ctx.decoys.countWrong(record, ctx.config.codeMaxAttempts)
    if (!outcome) return { ok: false, reason: 'too_many_attempts' } as const
    const { attempts, burned } = outcome
    const left = knownClient ? Number.POSITIVE_INFINITY : await ctx.guesses.record(address, purpose, now)
    if (left === 0)
      return {
        ok: false,
        reason: 'guess_limit',
        retryAfter: await ctx.guesses.wait(address, purpose, now),
      } as const
    if (burned) return { ok: false, reason: 'too_many_attempts' } as const
    const attemptsLeft = Math.min(ctx.config.codeMaxAttempts - attempts, left)
    return { ok: false, reason: 'invalid_code', attemptsLeft } as const
  })
}

/** A code nobody can know, counted like a real one; never stored with the real codes (product/domain/decoys.ts). */
function createDecoy(ctx: DomainContext, email: string, purpose: Purpose): CodeFields {
  const now = ctx.clock.now()
  return {
    id: ctx.random.id(),
    email,
    purpose,
    hash: keyedHash(ctx.config.secret, 'decoy', ctx.random.token()),
    // A decoy is "sent" back in time, so it never starts a cooldown of its own.
    sentAt: now - ctx.config.codeCooldownMs,
    expiresAt: now + ctx.config.codeTtlMs,
    attempts: 0,
    usedAt: null,
    burned: false,
    supersededAt: null,
    signup: null,
  }
}

/** A new reset token for the user; any older one of theirs stops working (only the newest recovery counts). */
export async function issueResetToken(ctx: DomainContext, userId: string): Promise<string> {
  const token = ctx.random.token()
  await ctx.store.resetTokens.replace({
    id: ctx.random.id(),
    userId,
    hash: hashToken(token),
    expiresAt: ctx.clock.now() + RESET_TOKEN_TTL_MS,
    usedAt: null,
  })
  return token
}

/** Whose reset token this is while it can still be used, without using it up; null otherwise. */
export async function getResetTokenUserId(ctx: DomainContext, token: string): Promise<string | null> {
  const record = await ctx.store.resetTokens.byHash(hashToken(token))
  return record && record.usedAt === null && record.expiresAt > ctx.clock.now() ? record.userId : null
}

/** The account of a reset token, using it up: of concurrent uses exactly one gets it; null when unusable. */
export async function consumeResetToken(ctx: DomainContext, token: string): Promise<string | null> {
  return ctx.store.resetTokens.use(hashToken(token), ctx.clock.now())
}
