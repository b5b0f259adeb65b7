// The OpenID provider the mock server plays at /idp, self-contained: the provider and its operations. Off (null) in
// production mode, where its routes are left out of the control table's routes (openapi-docs.ts, mockOnly).
import type { Clock } from '../shared/clock.ts'
import { createIdpOperations } from './operations.ts'
import { createOpenIdProvider, type IdpStores } from './provider.ts'

export interface IdpDeps {
  clock: Clock
  production: boolean
  /** /idp's form asks for the control token too, when the server has one. */
  controlToken: string | undefined
  publicOrigin: string | undefined
  seedAccounts: readonly { email: string; name: string }[]
  /** The shared database's stores (compose/state-store.ts); memory when absent. */
  stores?: IdpStores | undefined
}

export function createIdp(deps: IdpDeps) {
  const provider = deps.production
    ? null
    : createOpenIdProvider({
        clock: deps.clock,
        controlToken: deps.controlToken,
        seedAccounts: deps.seedAccounts,
        ...(deps.stores && { stores: deps.stores }),
      })
  return { provider, operations: createIdpOperations({ idp: provider, publicOrigin: deps.publicOrigin }) }
}

export type { IdpStores } from './provider.ts'
