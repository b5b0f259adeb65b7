// The OpenID provider the mock server plays at /idp (docs/decisions/022-openid-provider.md): discovery, JWKS, the
// authorization code flow with PKCE (S256), state and nonce, ES256 ID tokens, userinfo. Its issuer is
// `<origin>/idp` for the origin it is reached at (or the configured public origin), which the caller passes in.
// Its accounts, clients, codes and tokens live in memory, or in the SQL database every instance shares when core.ts
// hands in those stores (compose/sql-idp.ts); a reset brings back the seed. No HTTP here: idp/operations.ts answers
// the requests.
import type { JWK } from 'jose'
import { IDP_MAX_ENTRIES } from '../shared/constants.ts'
import type { Clock } from '../shared/clock.ts'
import { safeEqual } from '../shared/crypto.ts'
import { createIdpAccounts, type IdpAccounts } from './accounts.ts'
import {
  addToRedirect,
  checkAuthorizationRequest,
  type AuthorizationQuery,
  type AuthorizationRequest,
} from './authorization-request.ts'
import { createIdpClients, type IdpClients } from './clients.ts'
import { createGrants, getClaims, type Grants } from './grants.ts'
import { createSigningKey, ID_TOKEN_ALG, type SigningKey } from './keys.ts'
import { renderErrorPage, renderSignInPage } from './pages.ts'
import { exchangeCode, type OAuthError, type TokenAnswer } from './token.ts'

export type PageAnswer =
  | { kind: 'page'; status: 200 | 400; html: string }
  | { kind: 'redirect'; location: string }
  | { kind: 'token-required' }

export type UserinfoAnswer =
  | { status: 200; body: Record<string, unknown> & { sub: string } }
  | { status: 401; body: OAuthError; headers: Record<string, string> }

export interface SignInForm {
  request: string
  email: string
  name?: string
  control_token?: string
}

export interface OpenIdProvider {
  accounts: IdpAccounts
  clients: IdpClients
  /** The discovery document (OpenID Connect Discovery 1.0 section 3) of the provider at `issuer`. */
  metadata(issuer: string): Record<string, unknown>
  jwks(): Promise<{ keys: JWK[] }>
  /** GET /idp/authorize: the form, a redirect (a code for prompt=none, or an error), or a 400 page. */
  authorize(query: AuthorizationQuery, issuer: string, controlToken: string | undefined): Promise<PageAnswer>
  /**
   * POST /idp/authorize: the form's answer. With a control token set, the form carries it in a field, or a scripted
   * client in the X-Mock-Control-Token header (`headerToken`), which no other site's form can send.
   */
  submit(form: SignInForm, headerToken?: string): Promise<PageAnswer>
  token(
    body: Record<string, string | undefined>,
    authorization: string | undefined,
    issuer: string,
  ): Promise<TokenAnswer>
  userinfo(authorization: string | undefined): Promise<UserinfoAnswer>
  /** Adds the seed accounts that are missing (each instance on a shared database, at start). */
  seed(): Promise<void>
  reset(): Promise<void>
}

/** Where the provider keeps its state; each part defaults to memory. */
export interface IdpStores {
  accounts?: IdpAccounts | undefined
  clients?: IdpClients | undefined
  grants?: Grants | undefined
  key?: SigningKey | undefined
}

/**
 * @example
 * const idp = createOpenIdProvider({ clock })
 * idp.metadata('http://127.0.0.1:4010/idp').token_endpoint // 'http://127.0.0.1:4010/idp/token'
 */
export function createOpenIdProvider({
  clock,
  controlToken,
  seedAccounts,
  stores = {},
}: {
  clock: Clock
  controlToken?: string | undefined
  /** The accounts it knows at start and after each reset (core.ts: the product's verified seed accounts). */
  seedAccounts?: readonly { email: string; name: string }[]
  stores?: IdpStores
}): OpenIdProvider {
  const accounts = stores.accounts ?? createIdpAccounts(IDP_MAX_ENTRIES, seedAccounts)
  const clients = stores.clients ?? createIdpClients(IDP_MAX_ENTRIES)
  const grants = stores.grants ?? createGrants(clock)
  const key = stores.key ?? createSigningKey()
  const withCode = async (
    request: AuthorizationRequest,
    email: string,
    name?: string,
  ): Promise<PageAnswer> => {
    const code = await grants.issueCode(request, await accounts.put(email, name))
    return { kind: 'redirect', location: addToRedirect(request.redirectUri, { code, state: request.state }) }
  }
  const loginRequired = (request: AuthorizationRequest, description: string): PageAnswer => ({
    kind: 'redirect',
    location: addToRedirect(request.redirectUri, {
      error: 'login_required',
      error_description: description,
      state: request.state,
    }),
  })
  return {
    accounts,
    clients,
    metadata: (issuer) => ({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      userinfo_endpoint: `${issuer}/userinfo`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [ID_TOKEN_ALG],
      scopes_supported: ['openid', 'email', 'profile'],
      claims_supported: [
        'sub',
        'iss',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'email',
        'email_verified',
        'name',
      ],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      code_challenge_methods_supported: ['S256'],
      prompt_values_supported: ['none', 'login'],
    }),
    jwks: () => key.jwks(),
    async authorize(query, issuer, sentToken) {
      const check = await checkAuthorizationRequest(query, clients, new URL(issuer).origin)
      if (check.kind === 'page') return { kind: 'page', status: 400, html: renderErrorPage(check.message) }
      if (check.kind === 'redirect') return check
      const { request } = check
      if (request.prompt.includes('none')) {
        // A scripted client signs in without the form, as the account it names; with a control token set, only one
        // that sends it (docs/decisions/022-openid-provider.md).
        if (controlToken !== undefined && !safeEqual(sentToken ?? '', controlToken))
          return loginRequired(request, 'This server has a control token: send it in X-Mock-Control-Token.')
        const account = request.loginHint ? await accounts.get(request.loginHint) : null
        if (!account) return loginRequired(request, 'No account of this provider matches login_hint.')
        return withCode(request, account.email)
      }
      const requestId = await grants.holdRequest(request)
      const askToken = controlToken !== undefined
      return {
        kind: 'page',
        status: 200,
        html: renderSignInPage({
          requestId,
          askToken,
          ...(request.loginHint && { loginHint: request.loginHint }),
        }),
      }
    },
    async submit(form, headerToken) {
      if (
        controlToken !== undefined &&
        !safeEqual(form.control_token ?? '', controlToken) &&
        !safeEqual(headerToken ?? '', controlToken)
      )
        return { kind: 'token-required' }
      const request = await grants.takeRequest(form.request)
      if (!request) {
        const message = 'This sign-in request has expired or was already answered.'
        return { kind: 'page', status: 400, html: renderErrorPage(message) }
      }
      return withCode(request, form.email, form.name)
    },
    token: (body, authorization, issuer) =>
      exchangeCode({ clock, clients, accounts, grants, key }, body, authorization, issuer),
    async userinfo(authorization) {
      const token = /^Bearer ([\x21-\x7e]+)$/i.exec(authorization?.trim() ?? '')?.[1]
      const grant = token ? await grants.getAccessGrant(token) : undefined
      const account = grant ? await accounts.getBySub(grant.sub) : null
      if (!grant || !account) {
        return {
          status: 401,
          body: { error: 'invalid_token', error_description: 'Send a live access token of this provider.' },
          headers: {
            // RFC 6750 section 3: no error code when no token was sent.
            'www-authenticate': token ? 'Bearer realm="idp", error="invalid_token"' : 'Bearer realm="idp"',
          },
        }
      }
      return { status: 200, body: getClaims(account, grant.scope) as { sub: string } }
    },
    seed: () => accounts.seed(),
    async reset() {
      await Promise.all([accounts.reset(), clients.reset(), grants.clear()])
    },
  }
}
