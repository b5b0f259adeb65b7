// Accounts: creation, credentials with lock-out, password changes. Every sign-in failure, whether the
// address is unknown, the password wrong or the account locked, looks the same and costs one hash.
import type { DomainContext } from './context.ts'
import { normalizeEmail } from './context.ts'
import { createId } from './crypto.ts'
import { createStepsFor } from './process.ts'
import type { UserRecord } from './store.ts'

export type CredentialCheck =
  | { ok: true; user: UserRecord }
  | { ok: false; reason: 'invalid_credentials' }
  | { ok: false; reason: 'unverified'; user: UserRecord }

export function getUserByEmail(ctx: DomainContext, email: string): UserRecord | null {
  const wanted = normalizeEmail(email)
  return ctx.store.users.findFirst((q) => q.where({ email: wanted })) ?? null
}

export function getUserById(ctx: DomainContext, id: string): UserRecord | null {
  return ctx.store.users.findFirst((q) => q.where({ id })) ?? null
}

/** Creates an account, from a password or (when the caller already paid for the hash) a password hash. */
export async function createUser(
  ctx: DomainContext,
  input: { email: string; name: string; verified: boolean } & (
    { password: string } | { passwordHash: string }
  ),
): Promise<UserRecord> {
  const user = await ctx.store.users.create({
    id: createId(),
    email: normalizeEmail(input.email),
    name: input.name.trim(),
    passwordHash: 'passwordHash' in input ? input.passwordHash : await ctx.hasher.hash(input.password),
    verified: input.verified,
    createdAt: ctx.clock.now(),
    failedLogins: 0,
    lockedUntil: null,
  })
  await createStepsFor(ctx, user.id)
  return user
}

/** Checks a password; counts failures, locks after the threshold, and resets on success. */
export async function checkCredentials(
  ctx: DomainContext,
  email: string,
  password: string,
): Promise<CredentialCheck> {
  const wanted = normalizeEmail(email)
  return ctx.locks.run(`login:${wanted}`, async () => {
    const user = getUserByEmail(ctx, wanted)
    const matches = await ctx.hasher.verify(user?.passwordHash ?? (await ctx.hasher.dummyHash()), password)
    if (!user) return { ok: false, reason: 'invalid_credentials' } as const
    const now = ctx.clock.now()
    if (user.lockedUntil !== null && user.lockedUntil > now)
      return { ok: false, reason: 'invalid_credentials' } as const
    if (!matches) {
      const failures = (user.lockedUntil !== null ? 0 : user.failedLogins) + 1
      await ctx.store.users.update(user, {
        data(draft) {
          draft.failedLogins = failures >= ctx.config.lockoutThreshold ? 0 : failures
          draft.lockedUntil = failures >= ctx.config.lockoutThreshold ? now + ctx.config.lockoutMs : null
        },
      })
      return { ok: false, reason: 'invalid_credentials' } as const
    }
    await clearFailures(ctx, user)
    if (!user.verified) return { ok: false, reason: 'unverified', user } as const
    return { ok: true, user } as const
  })
}

async function clearFailures(ctx: DomainContext, user: UserRecord): Promise<void> {
  if (user.failedLogins === 0 && user.lockedUntil === null) return
  await ctx.store.users.update(user, {
    data(draft) {
      draft.failedLogins = 0
      draft.lockedUntil = null
    },
  })
}

export async function setPassword(ctx: DomainContext, user: UserRecord, password: string): Promise<void> {
  const passwordHash = await ctx.hasher.hash(password)
  await ctx.store.users.update((q) => q.where({ id: user.id }), {
    data(draft) {
      draft.passwordHash = passwordHash
      draft.failedLogins = 0
      draft.lockedUntil = null
    },
  })
}

export async function markVerified(ctx: DomainContext, user: UserRecord): Promise<UserRecord> {
  if (user.verified) return user
  return (
    (await ctx.store.users.update((q) => q.where({ id: user.id }), {
      data(draft) {
        draft.verified = true
      },
    })) ?? user
  )
}
