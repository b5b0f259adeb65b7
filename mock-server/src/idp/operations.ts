// The OpenID provider the mock server plays (/idp, idp/provider.ts), as operations: discovery, JWKS, the
// authorization endpoint and its form, the token and userinfo endpoints with their CORS preflights; and the
// /__mock/idp calls that add accounts and register clients. The issuer is `<origin>/idp` for the origin the request
// reached (or --public-origin): relying parties compare it exactly (docs/decisions/022-openid-provider.md).
import type { operations } from '#api/control.gen.ts'
import type { OpenIdProvider, PageAnswer } from './provider.ts'
import { CONTROL_TOKEN_HEADER } from '../pipeline/control-guard.ts'
import { getPublicOrigin } from '../pipeline/answers.ts'
import type { OperationTable } from '../pipeline/types.ts'

type IdpOperations = Pick<
  operations,
  | 'getIdpConfiguration'
  | 'getIdpJwks'
  | 'showIdpSignIn'
  | 'submitIdpSignIn'
  | 'requestIdpToken'
  | 'preflightIdpToken'
  | 'getIdpUserinfo'
  | 'postIdpUserinfo'
  | 'preflightIdpUserinfo'
  | 'addIdpAccount'
  | 'registerIdpClient'
>

/** Discovery, JWKS, token and userinfo are read by relying parties in browsers too: any origin, no credentials. */
const ANY_ORIGIN = { 'access-control-allow-origin': '*' } as const
const PREFLIGHT = {
  ...ANY_ORIGIN,
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-max-age': '600',
} as const

function requireIdp(idp: OpenIdProvider | null): OpenIdProvider {
  // Production mode leaves these routes out (openapi-docs.ts, mockOnly), so idp is there whenever this runs.
  if (!idp) throw new Error('Failed to answer for the mock identity provider: it is off in production mode.')
  return idp
}

function toPage(answer: Exclude<PageAnswer, { kind: 'token-required' }>) {
  return answer.kind === 'redirect'
    ? ({ status: 302, headers: { location: answer.location } } as const)
    : ({ status: answer.status, body: answer.html } as const)
}

export interface IdpOperationsDeps {
  /** The provider; null in production mode, where its routes are left out (openapi-docs.ts, mockOnly). */
  idp: OpenIdProvider | null
  /** The origin people reach the server at, when configured (--public-origin); else each request's own. */
  publicOrigin: string | undefined
}

export function createIdpOperations(ops: IdpOperationsDeps): OperationTable<IdpOperations> {
  const issuerOf = (request: { origin: string }) => `${getPublicOrigin(ops.publicOrigin, request)}/idp`
  const userinfo = async ({ request }: { request: { headers: Record<string, string | undefined> } }) => {
    const answer = await requireIdp(ops.idp).userinfo(request.headers.authorization)
    return answer.status === 200
      ? { status: 200 as const, body: answer.body, headers: { ...ANY_ORIGIN } }
      : { status: 401 as const, body: answer.body, headers: { ...answer.headers, ...ANY_ORIGIN } }
  }
  return {
    getIdpConfiguration: ({ request }) => ({
      status: 200,
      body: requireIdp(ops.idp).metadata(issuerOf(request)) as never,
      headers: { ...ANY_ORIGIN },
    }),
    async getIdpJwks() {
      const { keys } = await requireIdp(ops.idp).jwks()
      return { status: 200, body: { keys: keys as never }, headers: { ...ANY_ORIGIN } }
    },
    async showIdpSignIn({ query, request }) {
      const answer = await requireIdp(ops.idp).authorize(
        query,
        issuerOf(request),
        request.headers[CONTROL_TOKEN_HEADER],
      )
      if (answer.kind === 'token-required') throw new Error('Failed to authorize: no form was submitted.')
      return toPage(answer)
    },
    async submitIdpSignIn({ body, request }) {
      const answer = await requireIdp(ops.idp).submit(body, request.headers[CONTROL_TOKEN_HEADER])
      if (answer.kind === 'redirect') return { status: 302, headers: { location: answer.location } }
      if (answer.kind === 'page') return { status: 400, body: answer.html }
      return {
        status: 401,
        body: {
          error: 'control_token_required',
          message: 'This server has a control token: enter it to sign in at its identity provider.',
        },
      }
    },
    async requestIdpToken({ body, request }) {
      const answer = await requireIdp(ops.idp).token(body, request.headers.authorization, issuerOf(request))
      return { ...answer, headers: { ...answer.headers, ...ANY_ORIGIN } } as never
    },
    preflightIdpToken: () => ({ status: 204, headers: { ...PREFLIGHT } }),
    getIdpUserinfo: userinfo,
    postIdpUserinfo: userinfo,
    preflightIdpUserinfo: () => ({ status: 204, headers: { ...PREFLIGHT } }),
    async addIdpAccount({ body }) {
      return { status: 201, body: await requireIdp(ops.idp).accounts.put(body.email, body.name) }
    },
    async registerIdpClient({ body }) {
      const client = await requireIdp(ops.idp).clients.register(body)
      return {
        status: 201,
        body: {
          client_id: client.client_id,
          ...(client.client_secret !== undefined && { client_secret: client.client_secret }),
          redirect_uris: client.redirect_uris ?? [],
          token_endpoint_auth_method: client.client_secret === undefined ? 'none' : 'client_secret_basic',
        },
      }
    },
  }
}
