// The OpenID provider's registered clients and how they authenticate at its token endpoint (RFC 6749 section 2.3).
// The product's own client may return to any path of the provider's origin, since they share it. Clients registered
// through /__mock/idp/clients return only to a redirect URI they registered, compared exactly.
// Rules: docs/decisions/022-openid-provider.md.
import { createId, createRandomToken, safeEqual } from '../shared/crypto.ts'

export const PRODUCT_CLIENT_ID = 'auth-shell'

export interface IdpClient {
  client_id: string
  /** Absent for a public client. */
  client_secret?: string
  /** Exact redirect URIs; null for the product's client (any path of the provider's own origin). */
  redirect_uris: string[] | null
}

export type ClientAuthentication =
  | { ok: true; client: IdpClient }
  | { ok: false; error: 'invalid_client' | 'invalid_request'; description: string; basic: boolean }

export interface IdpClients {
  product: IdpClient
  get(clientId: string): IdpClient | null
  register(input: { redirect_uris: string[]; public?: boolean }): IdpClient
  /** Whether `redirectUri` is one the client may be sent back to, for a provider reached at `issuerOrigin`. */
  allowsRedirect(client: IdpClient, redirectUri: string, issuerOrigin: string): boolean
  /** The client a token request comes from: HTTP Basic, client_id and client_secret in the body, or client_id alone. */
  authenticate(
    authorization: string | undefined,
    body: Record<string, string | undefined>,
  ): ClientAuthentication
  reset(): void
}

/** An absolute http(s) URI without a fragment, written in printable ASCII (what a Location header can carry). */
export function isAbsoluteRedirectUri(value: string): boolean {
  if (!/^[\x21-\x7e]+$/.test(value)) return false
  try {
    const url = new URL(value)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hash === '' && !value.includes('#')
  } catch {
    return false
  }
}

function readBasic(header: string): { id: string; secret: string } | null {
  const match = /^Basic ([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim())
  if (!match) return null
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return null
  try {
    // RFC 6749 section 2.3.1: each part is form-urlencoded before it is joined.
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '))
    return { id: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) }
  } catch {
    return null
  }
}

export function createIdpClients(max: number): IdpClients {
  const product: IdpClient = {
    client_id: PRODUCT_CLIENT_ID,
    client_secret: createRandomToken(),
    redirect_uris: null,
  }
  const registered = new Map<string, IdpClient>()
  const get = (clientId: string) =>
    clientId === PRODUCT_CLIENT_ID ? product : (registered.get(clientId) ?? null)
  const refuse = (description: string, basic: boolean): ClientAuthentication => ({
    ok: false,
    error: 'invalid_client',
    description,
    basic,
  })
  return {
    product,
    get,
    register({ redirect_uris, public: isPublic }) {
      const client: IdpClient = {
        client_id: `client-${createId()}`,
        ...(!isPublic && { client_secret: createRandomToken() }),
        redirect_uris: [...redirect_uris],
      }
      if (registered.size >= max) registered.delete(registered.keys().next().value!)
      registered.set(client.client_id, client)
      return client
    },
    allowsRedirect(client, redirectUri, issuerOrigin) {
      if (!isAbsoluteRedirectUri(redirectUri)) return false
      if (client.redirect_uris) return client.redirect_uris.includes(redirectUri)
      return new URL(redirectUri).origin === issuerOrigin
    },
    authenticate(authorization, body) {
      const basic = authorization ? readBasic(authorization) : null
      if (authorization && !basic) return refuse('The Authorization header is not HTTP Basic.', true)
      if (basic && body.client_secret !== undefined) {
        return {
          ok: false,
          error: 'invalid_request',
          description: 'Use one way to authenticate the client.',
          basic: true,
        }
      }
      const id = basic?.id ?? body.client_id
      if (id === undefined) return refuse('The client is not identified.', false)
      if (basic && body.client_id !== undefined && body.client_id !== basic.id)
        return refuse('client_id does not match the authenticated client.', true)
      const client = get(id)
      const secret = basic?.secret ?? body.client_secret
      if (!client) return refuse('Unknown client.', basic !== null)
      if (client.client_secret === undefined) {
        return secret === undefined
          ? { ok: true, client }
          : refuse('This client has no secret.', basic !== null)
      }
      if (secret === undefined || !safeEqual(secret, client.client_secret))
        return refuse('The client could not be authenticated.', basic !== null)
      return { ok: true, client }
    },
    reset: () => registered.clear(),
  }
}
