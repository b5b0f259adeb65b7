// Sign-ups before the address is proven: whoever proves the address decides the credentials. A `signup` code
// carries the name and password hash of the sign-up it was mailed for, and proving the address with it gives
// the account those, and nothing else. Two sign-ups for one address while a code of it is unused and alive
// cannot be told apart (the server does not know which one the mail's owner made), so neither's password
// survives: both are withdrawn, and the owner sets a password through recovery. Proving the address any other
// way (a login or reset code, external sign-in) discards the unproven password too. Rules, figures and the
// tests that prove them: docs/security/codes.md. No HTTP here.
import type { DomainContext } from './context.ts'
import { normalizeEmail } from '../../shared/email.ts'
import { codeLockKey, getCooldownSeconds, getUnusedCodes, writeCode } from './codes.ts'
import type { CodeFields, UserRecord } from './store.ts'
import { createUser, getUserByEmail } from './users.ts'

export type PendingSignUp = NonNullable<CodeFields['signup']>

/** The name an account gets when none was proven: the address's local part (as the mock IdP does). */
const nameOf = (address: string) => address.split('@')[0]!

/**
 * A sign-up of an address without a verified account (the caller answers a verified one). The first one
 * creates the unverified account; a later one with no unused code alive takes its place; one while a code
 * is alive withdraws the credentials of every alive code and of the account. Returns the code to mail,
 * or null within the cooldown (nothing is mailed then).
 * @example
 * const code = await recordSignUp(ctx, { email, name: 'Ada', passwordHash })
 */
export async function recordSignUp(
  ctx: DomainContext,
  input: { email: string; name: string; passwordHash: string },
): Promise<string | null> {
  const address = normalizeEmail(input.email)
  return ctx.locks.run(codeLockKey(address, 'signup'), async () => {
    const user = getUserByEmail(ctx, address)
    const pending = { name: input.name.trim(), passwordHash: input.passwordHash }
    const contested = getUnusedCodes(ctx, address, 'signup').length > 0
    if (contested) {
      await ctx.store.codes.updateMany((q) => q.where({ email: address, purpose: 'signup', usedAt: null }), {
        data: (draft) => void (draft.signup = null),
      })
      if (user) await setDetails(ctx, user, await getWithdrawnDetails(ctx, address))
    } else if (user) await setDetails(ctx, user, pending)
    else await createUser(ctx, { email: address, ...pending, verified: false })
    if (getCooldownSeconds(ctx, address, 'signup') > 0) return null
    return writeCode(ctx, address, 'signup', contested ? null : pending)
  })
}

/**
 * A resent `signup` code for an unverified account: it proves what the newest alive code proves, or, with
 * none alive, the account's own details (those of the last uncontested sign-up, or withdrawn ones).
 */
export async function resendSignUpCode(ctx: DomainContext, user: UserRecord): Promise<string> {
  return ctx.locks.run(codeLockKey(user.email, 'signup'), async () => {
    const alive = getUnusedCodes(ctx, user.email, 'signup').sort((a, b) => b.sentAt - a.sentAt)[0]
    const signup = alive ? alive.signup : { name: user.name, passwordHash: user.passwordHash }
    return writeCode(ctx, user.email, 'signup', signup)
  })
}

/**
 * The address of an unverified account is proven: it takes the proven sign-up's details, or, with none (a
 * login or reset code, a contested sign-up), loses its unproven password and name. External sign-in gives
 * the provider's name. A verified account is returned as it is.
 */
export async function proveAddress(
  ctx: DomainContext,
  user: UserRecord,
  proven: { signup: PendingSignUp | null; name?: string },
): Promise<UserRecord> {
  // The owner has spoken for the address: no sign-up's password answers `unverified` any more.
  ctx.pendingPasswords.forget(user.email)
  if (user.verified) return user
  const withdrawn = await getWithdrawnDetails(ctx, user.email)
  const details = proven.signup ?? { ...withdrawn, name: proven.name?.trim() || withdrawn.name }
  return (await setDetails(ctx, user, details, true)) ?? user
}

/** No one's details: the local part for a name, and a password hash no one knows the password of. */
async function getWithdrawnDetails(ctx: DomainContext, address: string): Promise<PendingSignUp> {
  return { name: nameOf(address), passwordHash: await ctx.hasher.dummyHash() }
}

async function setDetails(ctx: DomainContext, user: UserRecord, details: PendingSignUp, verified = false) {
  return ctx.store.users.update((q) => q.where({ id: user.id }), {
    data(draft) {
      draft.name = details.name
      draft.passwordHash = details.passwordHash
      if (verified) draft.verified = true
    },
  })
}
