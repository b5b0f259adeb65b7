// The OpenID provider's token endpoint (RFC 6749 sections 4.1.3, 4.1.4 and 5; RFC 7636 section 4.6): a code and
// PKCE verifier for an access token and a signed ID token. Every refusal is an RFC 6749 error body; nothing is cached.
import { createHash } from 'node:crypto'
import type { components } from '#api/control.gen.ts'
import { IDP_TOKEN_TTL_MS } from '../shared/constants.ts'
import type { Clock } from '../shared/clock.ts'
import { hashToken, safeEqual } from '../shared/crypto.ts'
import type { IdpAccounts } from './accounts.ts'
import { authenticateClient, type IdpClients } from './clients.ts'
import { getClaims, type Grants } from './grants.ts'
import type { SigningKey } from './keys.ts'

export const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' } as const

export type OAuthError = components['schemas']['OAuthError']

export type TokenAnswer =
  | {
      status: 200
      body: {
        access_token: string
        token_type: 'Bearer'
        expires_in: number
        id_token: string
        scope: string
      }
      headers: Record<string, string>
    }
  | { status: 400 | 401; body: OAuthError; headers: Record<string, string> }

export interface TokenContext {
  clock: Clock
  clients: IdpClients
  accounts: IdpAccounts
  grants: Grants
  key: SigningKey
}

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/

const refuse = (
  status: 400 | 401,
  error: OAuthError['error'],
  description: string,
  headers = {},
): TokenAnswer => ({
  status,
  body: { error, error_description: description },
  headers: { ...NO_STORE, ...headers },
})

/**
 * @example
 * await exchangeCode(ctx, { grant_type: 'authorization_code', code, redirect_uri, code_verifier, client_id }, undefined, issuer)
 */
export async function exchangeCode(
  ctx: TokenContext,
  body: Record<string, string | undefined>,
  authorization: string | undefined,
  issuer: string,
): Promise<TokenAnswer> {
  if (!body.grant_type) return refuse(400, 'invalid_request', 'grant_type is required.')
  const auth = await authenticateClient(ctx.clients, authorization, body)
  if (!auth.ok) {
    // RFC 6749 section 5.2: a client that tried HTTP Basic is told so in WWW-Authenticate.
    const challenge = auth.basic ? { 'www-authenticate': 'Basic realm="idp", charset="UTF-8"' } : {}
    return refuse(auth.error === 'invalid_client' ? 401 : 400, auth.error, auth.description, challenge)
  }
  if (body.grant_type !== 'authorization_code')
    return refuse(400, 'unsupported_grant_type', 'Only grant_type=authorization_code is offered.')
  if (!body.code) return refuse(400, 'invalid_request', 'code is required.')
  if (!body.redirect_uri) return refuse(400, 'invalid_request', 'redirect_uri is required.')
  const taken = await ctx.grants.takeCode(body.code)
  if (!('grant' in taken)) {
    return refuse(
      400,
      'invalid_grant',
      taken.replayed ? 'The code was already used.' : 'The code is unknown or has expired.',
    )
  }
  const { grant } = taken
  if (grant.clientId !== auth.client.client_id)
    return refuse(400, 'invalid_grant', 'The code was issued to another client.')
  if (grant.redirectUri !== body.redirect_uri)
    return refuse(400, 'invalid_grant', 'redirect_uri differs from the one the code was issued for.')
  if (!body.code_verifier || !VERIFIER.test(body.code_verifier))
    return refuse(400, 'invalid_grant', 'code_verifier is missing or malformed.')
  const challenge = createHash('sha256').update(body.code_verifier).digest('base64url')
  if (!safeEqual(challenge, grant.codeChallenge))
    return refuse(400, 'invalid_grant', 'code_verifier does not match the code_challenge.')
  const account = await ctx.accounts.getBySub(grant.sub)
  if (!account) return refuse(400, 'invalid_grant', 'The account the code was issued for is gone.')
  const now = Math.floor(ctx.clock.now() / 1000)
  const expiresIn = IDP_TOKEN_TTL_MS / 1000
  const idToken = await ctx.key.sign({
    ...getClaims(account, grant.scope),
    iss: issuer,
    aud: grant.clientId,
    iat: now,
    exp: now + expiresIn,
    auth_time: grant.authTime,
    ...(grant.nonce !== undefined && { nonce: grant.nonce }),
  })
  const accessToken = await ctx.grants.issueAccessToken({
    sub: grant.sub,
    clientId: grant.clientId,
    scope: grant.scope,
    codeHash: hashToken(body.code),
  })
  // Replayed while this answer was made (another instance, or another request here): what it bought is revoked.
  if (accessToken === null) return refuse(400, 'invalid_grant', 'The code was already used.')
  return {
    status: 200,
    body: {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: expiresIn,
      id_token: idToken,
      scope: grant.scope.join(' '),
    },
    headers: { ...NO_STORE },
  }
}
