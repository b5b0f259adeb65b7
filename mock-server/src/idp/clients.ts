// The OpenID provider's registered clients and how they authenticate at its token endpoint (RFC 6749 section 2.3).
// The product's own client may return to any path of the provider's origin, since they share it. Clients registered
// through /__mock/idp/clients return only to a redirect URI they registered, compared exactly.
// Rules: docs/decisions/022-openid-provider.md.
import { createId, createRandomToken, hashToken, safeEqual } from '../shared/crypto.ts'

export const PRODUCT_CLIENT_ID = 'auth-shell'

export interface IdpClient {
  client_id: string
  /** SHA-256 of the secret; absent for a public client. The secret itself is shown once, at registration. */
  client_secret_hash?: string
  /** Exact redirect URIs; null for the product's client (any path of the provider's own origin). */
  redirect_uris: string[] | null
}

/** The product's client, made in each process: its relying party reaches this process's provider (in-process). */
export interface ProductClient extends IdpClient {
  client_secret: string
}

export type ClientAuthentication =
  | { ok: true; client: IdpClient }
  | { ok: false; error: 'invalid_client' | 'invalid_request'; description: string; basic: boolean }

/** The clients, in memory here or in the shared database (compose/sql-idp.ts). */
export interface IdpClients {
  product: ProductClient
  get(clientId: string): Promise<IdpClient | null>
  /** The client registered, and its secret (none for a public client), which is kept only as a hash. */
  register(input: {
    redirect_uris: string[]
    public?: boolean
  }): Promise<IdpClient & { client_secret?: string }>
  reset(): Promise<void>
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

export function createProductClient(): ProductClient {
  const secret = createRandomToken()
  return {
    client_id: PRODUCT_CLIENT_ID,
    client_secret: secret,
    client_secret_hash: hashToken(secret),
    redirect_uris: null,
  }
}

/** A new client's record and its secret: the id and secret are drawn here, whichever store keeps the record. */
export function newClient(input: {
  redirect_uris: string[]
  public?: boolean
}): IdpClient & { client_secret?: string } {
  const secret = input.public ? undefined : createRandomToken()
  return {
    client_id: `client-${createId()}`,
    ...(secret !== undefined && { client_secret: secret, client_secret_hash: hashToken(secret) }),
    redirect_uris: [...input.redirect_uris],
  }
}

/** The record a store keeps: never the secret. */
export function recordOf(client: IdpClient & { client_secret?: string }): IdpClient {
  const { client_secret: _secret, ...record } = client
  return record
}

export function createIdpClients(max: number): IdpClients {
  const product = createProductClient()
  const registered = new Map<string, IdpClient>()
  return {
    product,
    get: async (clientId) => (clientId === PRODUCT_CLIENT_ID ? product : (registered.get(clientId) ?? null)),
    async register(input) {
      const client = newClient(input)
      if (registered.size >= max) registered.delete(registered.keys().next().value!)
      registered.set(client.client_id, recordOf(client))
      return client
    },
    reset: async () => registered.clear(),
  }
}

/** Whether `redirectUri` is one the client may be sent back to, for a provider reached at `issuerOrigin`. */
export function allowsRedirect(client: IdpClient, redirectUri: string, issuerOrigin: string): boolean {
  if (!isAbsoluteRedirectUri(redirectUri)) return false
  if (client.redirect_uris) return client.redirect_uris.includes(redirectUri)
  return new URL(redirectUri).origin === issuerOrigin
}

const refuse = (description: string, basic: boolean): ClientAuthentication => ({
  ok: false,
  error: 'invalid_client',
  description,
  basic,
})

/** The client a token request comes from: HTTP Basic, client_id and client_secret in the body, or client_id alone. */
export async function authenticateClient(
  clients: IdpClients,
  authorization: string | undefined,
  body: Record<string, string | undefined>,
): Promise<ClientAuthentication> {
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
  const client = await clients.get(id)
  const secret = basic?.secret ?? body.client_secret
  if (!client) return refuse('Unknown client.', basic !== null)
  if (client.client_secret_hash === undefined) {
    return secret === undefined ? { ok: true, client } : refuse('This client has no secret.', basic !== null)
  }
  if (secret === undefined || !safeEqual(hashToken(secret), client.client_secret_hash))
    return refuse('The client could not be authenticated.', basic !== null)
  return { ok: true, client }
}
