// The product's external sign-in as a relying party, through openid-client, a certified library that makes every
// check of the ID token. The provider is the mock's own /idp or one set with --oidc-issuer
// (docs/decisions/022-openid-provider.md).
import { fullFormats } from 'ajv-formats/dist/formats.js'
import * as client from 'openid-client'
import type { ExternalIdentity, ExternalSignInProvider, PendingSignIn } from './types.ts'

export type CustomFetch = NonNullable<client.DiscoveryRequestOptions[typeof client.customFetch]>

export interface RelyingPartyOptions {
  /** The issuer for a request that reached this server at `origin`: a configured one, or `<origin>/idp`. */
  issuerFor(origin: string): string
  clientId: string
  /** Absent for a public client (PKCE alone, `none` at the token endpoint). Never logged. */
  clientSecret?: string
  /** How the library reaches the provider (default: the global fetch). */
  fetch?: CustomFetch
  /** Whether this issuer may be spoken to over plain http (openid-client refuses it otherwise). */
  allowHttp(issuer: URL): boolean
  /** Seconds the server's clock runs ahead of the real one (the mock clock), for the library's time checks. */
  clockSkewSeconds(): number
}

export const SCOPE = 'openid email profile'
/** Providers discovered, by issuer: one a served origin in mock mode, one in all when configured. */
const MAX_ISSUERS = 16

interface Discovered {
  metadata: client.ServerMetadata
  jwks?: client.ExportedJWKSCache
}

/**
 * @example
 * const rp = createRelyingParty({ issuerFor: () => 'https://id.example', clientId, clientSecret, allowHttp: () => false, clockSkewSeconds: () => 0 })
 * const { url, pending } = await rp.start({ state, redirectUri: 'https://app.example/callback', origin })
 */
export function createRelyingParty(options: RelyingPartyOptions): ExternalSignInProvider {
  const discovered = new Map<string, Promise<Discovered>>()
  const http = (issuer: string) => (options.allowHttp(new URL(issuer)) ? [client.allowInsecureRequests] : [])
  async function discover(issuer: string): Promise<Discovered> {
    const config = await client.discovery(new URL(issuer), options.clientId, undefined, undefined, {
      execute: http(issuer),
      ...(options.fetch && { [client.customFetch]: options.fetch }),
    })
    return { metadata: config.serverMetadata() }
  }
  function getDiscovered(issuer: string): Promise<Discovered> {
    let found = discovered.get(issuer)
    if (!found) {
      if (discovered.size >= MAX_ISSUERS) discovered.delete(discovered.keys().next().value!)
      found = discover(issuer)
      // A provider that could not be reached is asked again next time.
      found.catch(() => discovered.delete(issuer))
      discovered.set(issuer, found)
    }
    return found
  }
  /** A configuration of its own for each call: the clock skew and the token request's redirect_uri are per call. */
  function configure(entry: Discovered, issuer: string, redirectUri?: string): client.Configuration {
    const config = new client.Configuration(
      entry.metadata,
      options.clientId,
      {
        ...(options.clientSecret !== undefined && { client_secret: options.clientSecret }),
        [client.clockSkew]: options.clockSkewSeconds(),
      },
      options.clientSecret !== undefined ? client.ClientSecretBasic(options.clientSecret) : client.None(),
    )
    for (const step of http(issuer)) step(config)
    client.enableNonRepudiationChecks(config)
    if (entry.jwks) client.setJwksCache(config, entry.jwks)
    const base = options.fetch ?? ((url, init) => fetch(url, init as RequestInit))
    // openid-client derives the token request's redirect_uri from the callback URL without its query; a redirect
    // URI with a query of its own is sent as it was registered (the library's documented customFetch correction).
    config[client.customFetch] = (url, init) => {
      if (
        redirectUri &&
        init.body instanceof URLSearchParams &&
        init.body.get('grant_type') === 'authorization_code'
      )
        init.body.set('redirect_uri', redirectUri)
      return base(url, init)
    }
    return config
  }
  return {
    async start({ state, redirectUri, origin }) {
      const issuer = options.issuerFor(origin)
      const config = configure(await getDiscovered(issuer), issuer)
      const codeVerifier = client.randomPKCECodeVerifier()
      const nonce = client.randomNonce()
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: SCOPE,
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      })
      const pending: PendingSignIn = { issuer, redirectUri, nonce, codeVerifier }
      return { url: url.href, pending }
    },
    async finish({ code, state, pending }) {
      const entry = await getDiscovered(pending.issuer)
      const config = configure(entry, pending.issuer, pending.redirectUri)
      const callback = new URL(pending.redirectUri)
      callback.searchParams.set('code', code)
      callback.searchParams.set('state', state)
      // RFC 9207: the app's callback carries only code and state; with one provider per sign-in there is no other
      // issuer to mix up, so the one it started with is the one named.
      if (entry.metadata.authorization_response_iss_parameter_supported)
        callback.searchParams.set('iss', pending.issuer)
      let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>
      try {
        tokens = await client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: pending.codeVerifier,
          expectedState: state,
          expectedNonce: pending.nonce,
        })
      } catch (error) {
        // The provider refused the code (invalid_grant and the like): no one is signed in. Anything else is a fault.
        if (error instanceof client.ResponseBodyError) return null
        throw error
      }
      entry.jwks = client.getJwksCache(config) ?? entry.jwks
      const claims = tokens.claims()!
      const identity =
        typeof claims.email === 'string' && claims.email_verified === true
          ? claims
          : await client.fetchUserInfo(config, tokens.access_token, claims.sub)
      return toIdentity(identity)
    },
  }
}

/**
 * An address as the API's validator reads `format: email` (ajv-formats, full mode: pipeline/openapi-docs.ts): no list
 * (`a,b@x`) and no display part (`x<y@z>`), which a mail library would send to another mailbox than the account's.
 */
const EMAIL = fullFormats.email as RegExp

/** Only an address the provider says it verified proves anything (docs/decisions/022-openid-provider.md). */
export function toIdentity(claims: Record<string, unknown>): ExternalIdentity | null {
  if (typeof claims.email !== 'string' || claims.email_verified !== true) return null
  const email = claims.email.trim().toLowerCase()
  // What an account can hold (openapi.yaml: User): an address of at most 254 characters, a name of at most 100.
  if (email.length > 254 || !EMAIL.test(email)) return null
  const name = typeof claims.name === 'string' ? claims.name.trim().slice(0, 100) : ''
  return { email, name: name || email.split('@')[0]! }
}
