// The external sign-in feature: which provider the product is a relying party of, the sign-ins started and not yet
// called back, and the two operations of openapi.yaml that run them.
import type { Dispatch } from '../pipeline/dispatch.ts'
import type { Clock } from '../shared/clock.ts'
import { createExternalSignInOperations, type ExternalSignInDeps } from './operations.ts'
import { createPendingSignIns, type PendingSignIns } from './pending-sign-ins.ts'
import { createExternalSignIn, type LocalProviderClient, type OidcOptions } from './provider.ts'
import type { ExternalSignInProvider } from './types.ts'

export interface ExternalSignInFeatureDeps extends Pick<ExternalSignInDeps, 'publicOrigin' | 'signIn'> {
  clock: Clock
  /** A provider as code (tests); else one configured (`oidc`), else the mock's own (`localClient`), else none. */
  provider: ExternalSignInProvider | undefined
  oidc: OidcOptions | undefined
  localClient: LocalProviderClient | null
  /** The server's own dispatch, for reaching the mock's provider in process (read at each call). */
  getDispatch(): Dispatch
  /** The shared database's store (compose/state-store.ts); memory when absent. */
  pendingSignIns?: PendingSignIns | undefined
}

export function createExternalSignInFeature(deps: ExternalSignInFeatureDeps) {
  const external =
    deps.provider ??
    createExternalSignIn({
      localClient: deps.localClient,
      oidc: deps.oidc,
      clock: deps.clock,
      getDispatch: deps.getDispatch,
    })
  const pendingSignIns = deps.pendingSignIns ?? createPendingSignIns(deps.clock)
  const operations = createExternalSignInOperations({
    external,
    pendingSignIns,
    publicOrigin: deps.publicOrigin,
    signIn: deps.signIn,
  })
  return { external, pendingSignIns, operations, available: external !== null }
}

export type { OidcOptions } from './provider.ts'
export type { ExternalSignInProvider } from './types.ts'
