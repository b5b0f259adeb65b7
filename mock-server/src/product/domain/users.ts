// Accounts: creation, credentials with lock-out, password changes. Every sign-in failure looks the same and costs
// one hash, so no answer tells an address exists. Lock-out: product/domain/lockout.ts (docs/security/lockout.md).
import type { DomainContext } from './context.ts'
import { normalizeEmail } from '../../shared/email.ts'
import { createStepsFor } from './process.ts'
import { revokeUserSessions } from './sessions.ts'
import type { UserRecord } from '../storage/records.ts'

export type CredentialCheck =
  /** `passwordHash`: the hash the password was checked against (a later change makes the check stale). */
  | { ok: true; user: UserRecord; passwordHash: string }
  | { ok: false; reason: 'invalid_credentials' }
  /** The password of an unverified account, or of the newest sign-up of the address. */
  | { ok: false; reason: 'unverified' }
  /** Past the account's ceiling from an address it does not know: the password was not checked. */
  | { ok: false; reason: 'paced'; retryAfter: number }

export async function getUserByEmail(ctx: DomainContext, email: string): Promise<UserRecord | null> {
  return ctx.store.users.byEmail(normalizeEmail(email))
}

export async function getUserById(ctx: DomainContext, id: string): Promise<UserRecord | null> {
  return ctx.store.users.byId(id)
}

/** Creates an account, from a password or (when the caller already paid for the hash) a password hash. */
export async function createUser(
  ctx: DomainContext,
  input: { email: string; name: string; verified: boolean } & (
    { password: string } | { passwordHash: string }
  ),
): Promise<UserRecord> {
  const created = await ctx.store.users.create({
    id: ctx.random.id(),
    email: normalizeEmail(input.email),
    name: input.name.trim(),
    passwordHash: 'passwordHash' in input ? input.passwordHash : await ctx.hasher.hash(input.password),
    verified: input.verified,
    createdAt: ctx.clock.now(),
  })
  // Every caller holds the address's lock and found no account; an account made meanwhile by another instance
  // is the one the address has.
  const user = created ?? (await getUserByEmail(ctx, input.email))
  if (!user) throw new Error('Failed to create an account: the address is taken and its account is gone.')
  if (created) await createStepsFor(ctx, user.id)
  return user
}

/**
 * Checks a password from one client (its key, pipeline/client-key.ts). Wrong passwords count per (account,
 * client) and per account, for unknown addresses too; a locked client is refused even the right password.
 */
export async function checkCredentials(
  ctx: DomainContext,
  email: string,
  password: string,
  client: string,
): Promise<CredentialCheck> {
  const wanted = normalizeEmail(email)
  return ctx.locks.run(`login:${wanted}`, async () => {
    const gate = await ctx.lockout.admit(wanted, client)
    if (gate.kind === 'paced') return { ok: false, reason: 'paced', retryAfter: gate.retryAfter } as const
    const user = await getUserByEmail(ctx, wanted)
    const checkedHash = user?.passwordHash
    const matches = await ctx.hasher.verify(checkedHash ?? (await ctx.hasher.dummyHash()), password)
    if (gate.kind === 'locked') return { ok: false, reason: 'invalid_credentials' } as const
    if (user?.verified && checkedHash && matches) {
      await ctx.lockout.recordSuccess(wanted, client)
      return { ok: true, user, passwordHash: checkedHash } as const
    }
    // Every other answer costs a second check, against the newest sign-up's password (or the dummy), so
    // "sign up, then sign in" answers `unverified` in every state with the same work. That answer counts neither
    // way for the lock-out.
    const pending = await ctx.pendingPasswords.find(wanted)
    const matchesPending = await ctx.hasher.verify(pending ?? (await ctx.hasher.dummyHash()), password)
    if ((user && matches) || matchesPending) return { ok: false, reason: 'unverified' } as const
    await ctx.lockout.recordFailure(wanted, client)
    return { ok: false, reason: 'invalid_credentials' } as const
  })
}

/**
 * Whether the password a sign-in checked is still the account's. A password change during the check ends the
 * sessions it finds, so a session made after that sweep must not outlive it (docs/security/hardening.md).
 */
export async function isPasswordCurrent(
  ctx: DomainContext,
  userId: string,
  checkedHash: string,
): Promise<boolean> {
  return (await getUserById(ctx, userId))?.passwordHash === checkedHash
}

/**
 * A new password, and the end of the account's sessions (but `keep`, the caller's own on a change). They end
 * before the hash is written, so a server killed in between leaves none the change should have ended
 * (scripts/soak-cluster, T18), and again after it, for one a sign-in with the old password made meanwhile.
 */
export async function setPassword(
  ctx: DomainContext,
  user: UserRecord,
  password: string,
  sessions: { reason: string; keep?: string },
): Promise<void> {
  const passwordHash = await ctx.hasher.hash(password)
  await revokeUserSessions(ctx, user.id, sessions.reason, sessions.keep)
  await ctx.store.users.update(user.id, { passwordHash })
  await revokeUserSessions(ctx, user.id, sessions.reason, sessions.keep)
  // A reset token issued before the new password is dead: whoever once read a reset code cannot take the account
  // back after the owner recovered or changed it (docs/security/hardening.md).
  await ctx.store.resetTokens.deleteFor(user.id)
  // A new password lifts every lock-out of the account, and no address stays known to it; nor does a
  // sign-up's password answer `unverified` any more.
  await ctx.lockout.forgetAccount(user.email)
  await ctx.pendingPasswords.forget(user.email)
}

export async function markVerified(ctx: DomainContext, user: UserRecord): Promise<UserRecord> {
  if (user.verified) return user
  return (await ctx.store.users.update(user.id, { verified: true })) ?? user
}
