// Which provider the product's external sign-in is a relying party of (docs/decisions/022-openid-provider.md): a
// configured OpenID provider (--oidc-issuer), else the mock's own /idp reached in process, else none (production
// mode without a configuration: external sign-in answers `external_sign_in_unavailable`).
import type { Clock } from '../shared/clock.ts'
import { isLoopbackUrl } from '../shared/loopback.ts'
import type { ExternalSignInProvider } from './types.ts'
import type { Dispatch } from '../pipeline/dispatch.ts'
import { createInProcessFetch } from './in-process-fetch.ts'
import { createRelyingParty } from './relying-party.ts'

export interface OidcOptions {
  /** The provider's issuer identifier, compared exactly with its discovery document and ID tokens. */
  issuer: string
  clientId: string
  /** Absent for a public client. From the environment only; never logged. */
  clientSecret?: string
}

/** The mock's own provider (/idp) as this relying party sees it: the product's client there; null when there is none. */
export interface LocalProviderClient {
  client_id: string
  client_secret?: string | undefined
}

export function createExternalSignIn(input: {
  localClient: LocalProviderClient | null
  oidc: OidcOptions | undefined
  clock: Clock
  getDispatch: () => Dispatch
}): ExternalSignInProvider | null {
  // The library checks times against Date.now(); the server's clock (movable in mock mode) decides them here.
  const clockSkewSeconds = () => Math.round((input.clock.now() - Date.now()) / 1000)
  const { oidc, localClient } = input
  if (oidc) {
    return createRelyingParty({
      issuerFor: () => oidc.issuer,
      clientId: oidc.clientId,
      ...(oidc.clientSecret !== undefined && { clientSecret: oidc.clientSecret }),
      // openid-client speaks plain http only to a provider on this machine.
      allowHttp: isLoopbackUrl,
      clockSkewSeconds,
    })
  }
  if (!localClient) return null
  const { client_id, client_secret } = localClient
  return createRelyingParty({
    issuerFor: (origin) => `${origin}/idp`,
    clientId: client_id,
    ...(client_secret !== undefined && { clientSecret: client_secret }),
    fetch: createInProcessFetch(input.getDispatch),
    // In process: nothing goes over a network, whatever the scheme of the origin it names.
    allowHttp: () => true,
    clockSkewSeconds,
  })
}
