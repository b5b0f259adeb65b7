// What an identity an external provider vouches for becomes in the product: an account, its address proven. The
// provider and the sign-in's steps are the external-sign-in feature's (external-sign-in/); no HTTP here.
import type { DomainContext } from './context.ts'
import { proveAddress } from './sign-ups.ts'
import type { UserRecord } from '../storage/records.ts'
import { createUser, getUserByEmail } from './users.ts'

/**
 * The account the provider vouches for on the app's callback, its address proven: an existing one (an unverified
 * account's unproven password never survives this, sign-ups.ts) or a new, verified one with a password no one knows.
 * @example const user = await signInExternally(domain, { email: 'sso@example.com', name: 'Sso' })
 */
export async function signInExternally(
  domain: DomainContext,
  identity: { email: string; name: string },
): Promise<UserRecord> {
  const existing = await getUserByEmail(domain, identity.email)
  if (existing) return proveAddress(domain, existing, { signup: null, name: identity.name })
  return createUser(domain, {
    email: identity.email,
    name: identity.name,
    password: domain.random.token(),
    verified: true,
  })
}
