// The product's external sign-in (`authorizeExternal`, `exchangeCallback` of openapi.yaml): the product is a relying
// party of an OpenID provider (relying-party.ts). The nonce and PKCE verifier stay here, bound to the app's state and
// to this browser's `sso` cookie, until the callback; what the vouched-for identity becomes is the product's, handed
// in as `signIn` (core.ts).
import type { operations } from '#api/openapi.gen.ts'
import { getPublicOrigin, isSafeRedirectPath, validationFailed } from '../pipeline/answers.ts'
import { externalCookieName } from '../pipeline/cookies.ts'
import type { OperationTable, OutputFor } from '../pipeline/types.ts'
import { EXTERNAL_SIGN_IN_TTL_MS } from '../shared/constants.ts'
import { createRandomToken } from '../shared/crypto.ts'
import type { PendingSignIns } from './pending-sign-ins.ts'
import type { ExternalIdentity, ExternalSignInProvider } from './types.ts'

type ExternalOperations = Pick<operations, 'authorizeExternal' | 'exchangeCallback'>

export interface ExternalSignInDeps {
  /** The provider; null when this server has none (production mode by default). */
  external: ExternalSignInProvider | null
  pendingSignIns: PendingSignIns
  publicOrigin: string | undefined
  /** The product's sign-in of the account the provider vouches for: its 200 answer. */
  signIn(
    identity: ExternalIdentity,
  ): Promise<Extract<OutputFor<operations['exchangeCallback']>, { status: 200 }>>
}

/** No identity provider here (production mode unless one is configured): the documented refusal. */
const EXTERNAL_SIGN_IN_UNAVAILABLE = {
  status: 404,
  body: {
    error: 'external_sign_in_unavailable',
    message: 'Single sign-on is not available on this server. Sign in with your e-mail address.',
  },
} as const

export function createExternalSignInOperations(deps: ExternalSignInDeps): OperationTable<ExternalOperations> {
  const { external, pendingSignIns } = deps
  return {
    async authorizeExternal({ query, request }) {
      if (!external) return EXTERNAL_SIGN_IN_UNAVAILABLE
      const redirect = query.redirect_uri ?? '/callback'
      if (!isSafeRedirectPath(redirect)) return validationFailed('redirect_uri', 'Use a path on this site.')
      const origin = getPublicOrigin(deps.publicOrigin, request)
      const { url, pending } = await external.start({
        state: query.state,
        redirectUri: `${origin}${redirect}`,
        origin,
      })
      const binding = request.cookies[externalCookieName(request.secure)] ?? createRandomToken()
      await pendingSignIns.add(query.state, binding, pending)
      return {
        status: 302,
        headers: { location: url },
        cookies: [{ name: 'external', value: binding, maxAgeSeconds: EXTERNAL_SIGN_IN_TTL_MS / 1000 }],
      }
    },

    async exchangeCallback({ body, request }) {
      if (!external) return EXTERNAL_SIGN_IN_UNAVAILABLE
      const pending = await pendingSignIns.take(
        body.state,
        request.cookies[externalCookieName(request.secure)],
      )
      const identity = pending ? await external.finish({ ...body, pending }) : null
      if (!identity) {
        return {
          status: 400,
          body: {
            error: 'invalid_callback',
            message: 'The sign-in could not be completed. Please try again.',
          },
        }
      }
      return deps.signIn(identity)
    },
  }
}
