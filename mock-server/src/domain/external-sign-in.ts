// External sign-in, as the operations see it: the identity provider (where to send the browser, who a code vouches
// for) and what a vouched-for identity becomes (an account, proven). The mock server plays a provider (/idp,
// createMockIdentityProvider, its codes in external-codes.ts) outside production mode; a real OpenID provider can be
// plugged in through createApp({ externalSignIn }); production mode has none by default, so no one signs in as
// whatever address they type (docs/security/surface.md). No HTTP here.
import type { DomainContext } from './context.ts'
import { createRandomToken } from './crypto.ts'
import { issueExternalCode, redeemExternalCode } from './external-codes.ts'
import { proveAddress } from './sign-ups.ts'
import type { UserRecord } from './store.ts'
import { createUser, getUserByEmail } from './users.ts'

export interface ExternalIdentity {
  email: string
  name: string
}

export interface ExternalSignInProvider {
  /** Where the browser goes to sign in; the provider sends it back to `redirectUri` with `code` and `state`. */
  authorizeUrl(input: { state: string; redirectUri: string }): string
  /** Who the provider vouches for, once per code; null for an unknown, used or expired code, or another state. */
  exchange(input: { code: string; state: string }): Promise<ExternalIdentity | null>
}

export interface MockIdentityProvider extends ExternalSignInProvider {
  /** The mock provider's sign-in form was submitted: a one-time code for whoever was typed. */
  issueCode(input: { email: string; name?: string; state: string }): Promise<string>
}

/**
 * The identity provider the mock server plays (/idp): it vouches for whatever address its form is given.
 * @example
 * const idp = createMockIdentityProvider(domain)
 * const code = await idp.issueCode({ email: 'sso@example.com', state })
 * await idp.exchange({ code, state }) // { email: 'sso@example.com', name: 'sso' }, then null
 */
export function createMockIdentityProvider(domain: DomainContext): MockIdentityProvider {
  return {
    authorizeUrl: ({ state, redirectUri }) =>
      `/idp/authorize?${new URLSearchParams({ state, redirect_uri: redirectUri })}`,
    issueCode: (input) => issueExternalCode(domain, input),
    exchange: (input) => redeemExternalCode(domain, input),
  }
}

/**
 * The account the provider vouches for on the app's callback, its address proven: an existing one (an unverified
 * account's unproven password never survives this, sign-ups.ts) or a new, verified one with a password no one knows.
 * Null when the provider vouches for no one (a bad, used or expired code, or another state).
 */
export async function signInExternally(
  domain: DomainContext,
  provider: ExternalSignInProvider,
  callback: { code: string; state: string },
): Promise<UserRecord | null> {
  const identity = await provider.exchange(callback)
  if (!identity) return null
  const existing = getUserByEmail(domain, identity.email)
  if (existing) return proveAddress(domain, existing, { signup: null, name: identity.name })
  return createUser(domain, {
    email: identity.email,
    name: identity.name,
    password: createRandomToken(),
    verified: true,
  })
}
