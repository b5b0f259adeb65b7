// The OpenID provider's check of an authorization request (RFC 6749 section 4.1.1, RFC 7636 section 4.3, OpenID
// Connect Core section 3.1.2.1). A bad client or redirect URI gets a 400 page, never a redirect
// (RFC 6749 section 4.1.2.1), since the URI cannot be trusted. Every other fault goes back to the client.
import { allowsRedirect, type IdpClient, type IdpClients } from './clients.ts'

export interface AuthorizationRequest {
  client: IdpClient
  redirectUri: string
  scope: string[]
  state?: string
  nonce?: string
  codeChallenge: string
  prompt: string[]
  loginHint?: string
}

export type AuthorizationCheck =
  | { kind: 'page'; message: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'valid'; request: AuthorizationRequest }

/** The query of an authorization request: every parameter optional, the rules are checked here. */
export type AuthorizationQuery = Partial<Record<string, string>>

/** RFC 7636 section 4.2: BASE64URL(SHA-256(verifier)) is 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

/**
 * The client's redirect URI with the response parameters added to its own query, which it keeps.
 * @example addToRedirect('https://rp.example/cb?x=1', { code: 'c', state: 's' }) // 'https://rp.example/cb?x=1&code=c&state=s'
 */
export function addToRedirect(redirectUri: string, parameters: Record<string, string | undefined>): string {
  const target = new URL(redirectUri)
  for (const [name, value] of Object.entries(parameters))
    if (value !== undefined) target.searchParams.set(name, value)
  return target.href
}

/**
 * @example
 * await checkAuthorizationRequest(query, clients, 'http://127.0.0.1:4010')
 * // { kind: 'valid', request } | { kind: 'redirect', location: '…?error=invalid_scope&…' } | { kind: 'page', message }
 */
export async function checkAuthorizationRequest(
  query: AuthorizationQuery,
  clients: IdpClients,
  issuerOrigin: string,
): Promise<AuthorizationCheck> {
  if (!query.client_id) return { kind: 'page', message: 'The request names no client (client_id).' }
  const client = await clients.get(query.client_id)
  if (!client) return { kind: 'page', message: 'The request names a client this provider does not know.' }
  const redirectUri = query.redirect_uri
  if (!redirectUri) return { kind: 'page', message: 'The request has no redirect_uri.' }
  if (!allowsRedirect(client, redirectUri, issuerOrigin)) {
    return {
      kind: 'page',
      message:
        'The redirect_uri is not an absolute address registered for this client, so the sign-in stops here.',
    }
  }
  const refuse = (error: string, description: string): AuthorizationCheck => ({
    kind: 'redirect',
    location: addToRedirect(redirectUri, { error, error_description: description, state: query.state }),
  })
  if (!query.response_type) return refuse('invalid_request', 'response_type is required.')
  if (query.response_type !== 'code')
    return refuse(
      'unsupported_response_type',
      'Only the authorization code flow (response_type=code) is offered.',
    )
  if (query.response_mode !== undefined && query.response_mode !== 'query')
    return refuse('invalid_request', 'Only response_mode=query is offered.')
  const scope = (query.scope ?? '').split(' ').filter(Boolean)
  if (!scope.includes('openid')) return refuse('invalid_scope', 'The scope must include openid.')
  if (!query.code_challenge) return refuse('invalid_request', 'PKCE is required: send code_challenge (S256).')
  if (query.code_challenge_method !== 'S256')
    return refuse('invalid_request', 'Only the S256 code_challenge_method is supported.')
  if (!S256_CHALLENGE.test(query.code_challenge))
    return refuse('invalid_request', 'code_challenge is not a base64url SHA-256 digest.')
  const prompt = (query.prompt ?? '').split(' ').filter(Boolean)
  if (prompt.includes('none') && prompt.length > 1)
    return refuse('invalid_request', 'prompt=none cannot be combined with other prompts.')
  return {
    kind: 'valid',
    request: {
      client,
      redirectUri,
      scope,
      codeChallenge: query.code_challenge,
      prompt,
      ...(query.state !== undefined && { state: query.state }),
      ...(query.nonce !== undefined && { nonce: query.nonce }),
      ...(query.login_hint !== undefined && { loginHint: query.login_hint }),
    },
  }
}
