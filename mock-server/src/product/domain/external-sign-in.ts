// External sign-in, as the operations see it: the identity provider (where to send the browser, who it vouches for
// on the way back) and what a vouched-for identity becomes (an account, proven). The provider is an OpenID provider
// reached through openid-client (relying-party/relying-party.ts): the one the mock server plays at /idp outside
// production mode, or one configured with --oidc-issuer; production mode has none by default, so no one signs in as
// whatever address they type (docs/security/surface.md, docs/decisions/022-openid-provider.md). No HTTP here.
import type { DomainContext } from './context.ts'
import { createRandomToken } from '../../shared/crypto.ts'
import { proveAddress } from './sign-ups.ts'
import type { UserRecord } from './store.ts'
import { createUser, getUserByEmail } from './users.ts'

export interface ExternalIdentity {
  email: string
  name: string
}

/** What a started sign-in keeps on the server until its callback: never sent to the browser. */
export interface PendingSignIn {
  issuer: string
  redirectUri: string
  nonce: string
  codeVerifier: string
}

export interface ExternalSignInProvider {
  /**
   * Where the browser goes to sign in (`redirectUri`, absolute, is where the provider sends it back with `code` and
   * `state`), and what to keep for the callback.
   */
  start(input: {
    state: string
    redirectUri: string
    origin: string
  }): Promise<{ url: string; pending: PendingSignIn }>
  /** Who the provider vouches for; null when it refuses the code (unknown, used, expired, another client's). */
  finish(input: { code: string; state: string; pending: PendingSignIn }): Promise<ExternalIdentity | null>
}

/**
 * The account the provider vouches for on the app's callback, its address proven: an existing one (an unverified
 * account's unproven password never survives this, sign-ups.ts) or a new, verified one with a password no one knows.
 * @example const user = await signInExternally(domain, { email: 'sso@example.com', name: 'Sso' })
 */
export async function signInExternally(
  domain: DomainContext,
  identity: ExternalIdentity,
): Promise<UserRecord> {
  const existing = getUserByEmail(domain, identity.email)
  if (existing) return proveAddress(domain, existing, { signup: null, name: identity.name })
  return createUser(domain, {
    email: identity.email,
    name: identity.name,
    password: createRandomToken(),
    verified: true,
  })
}
