// Sign-ups before the address is proven: whoever proves the address decides the credentials.
// Two sign-ups for one address cannot be told apart, so neither password survives; the owner uses recovery.
// Rules, figures and tests: docs/security/codes.md. No HTTP here.
import type { DomainContext } from './context.ts'
import { normalizeEmail } from '../../shared/email.ts'
import { codeLockKey, getCooldownSeconds, getUnusedCodes, writeCode } from './codes.ts'
import type { CodeFields, UserRecord } from '../storage/records.ts'
import { createUser, getUserByEmail } from './users.ts'

export type PendingSignUp = NonNullable<CodeFields['signup']>

/** The name an account gets when none was proven: the address's local part (as the mock IdP does). */
const nameOf = (address: string) => address.split('@')[0]!

/**
 * A sign-up of an address without a verified account. A second sign-up while a code is alive withdraws every
 * password, since the server cannot tell which one the mail's owner made. Returns the code to mail, or null
 * within the cooldown. An address without an account has nothing to contest: its codes are decoys nobody was
 * mailed (a code asked for it is written, not sent), and from now on they prove this sign-up, so the code resent
 * after their cooldown does too.
 * @example
 * const code = await recordSignUp(ctx, { email, name: 'Ada', passwordHash })
 */
export async function recordSignUp(
  ctx: DomainContext,
  input: { email: string; name: string; passwordHash: string },
  /** False when the caller found the cooldown running: the details are recorded, no code is written. */
  { mayWrite = true }: { mayWrite?: boolean } = {},
): Promise<string | null> {
  const address = normalizeEmail(input.email)
  return ctx.locks.run(codeLockKey(address, 'signup'), async () => {
    const user = await getUserByEmail(ctx, address)
    const pending = { name: input.name.trim(), passwordHash: input.passwordHash }
    const contested = user !== null && (await getUnusedCodes(ctx, address, 'signup')).length > 0
    if (contested) {
      await ctx.store.codes.setSignUps(address, null)
      await setDetails(ctx, user, await getWithdrawnDetails(ctx, address))
    } else if (user) await setDetails(ctx, user, pending)
    else {
      await createUser(ctx, { email: address, ...pending, verified: false })
      await ctx.store.codes.setSignUps(address, pending)
    }
    if (!mayWrite || (await getCooldownSeconds(ctx, address, 'signup')) > 0) return null
    return writeCode(ctx, address, 'signup', contested ? null : pending)
  })
}

/** A resent `signup` code for an unverified account: it proves what the newest alive code proves. */
export async function resendSignUpCode(ctx: DomainContext, user: UserRecord): Promise<string> {
  return ctx.locks.run(codeLockKey(user.email, 'signup'), async () => {
    const alive = (await getUnusedCodes(ctx, user.email, 'signup')).sort((a, b) => b.sentAt - a.sentAt)[0]
    const signup = alive ? alive.signup : { name: user.name, passwordHash: user.passwordHash }
    return writeCode(ctx, user.email, 'signup', signup)
  })
}

/**
 * The address of an unverified account is proven. It takes the proven sign-up's details, or with none, loses
 * its unproven password and name. A verified account is returned as it is.
 */
export async function proveAddress(
  ctx: DomainContext,
  user: UserRecord,
  proven: { signup: PendingSignUp | null; name?: string },
): Promise<UserRecord> {
  // The owner has spoken for the address: no sign-up's password answers `unverified` any more.
  await ctx.pendingPasswords.forget(user.email)
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
  const { name, passwordHash } = details
  return ctx.store.users.update(user.id, { name, passwordHash, ...(verified && { verified: true }) })
}
