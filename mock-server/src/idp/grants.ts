// What the OpenID provider hands out and takes back: requests waiting at the form, codes, access tokens, ID token
// claims. No HTTP here; token.ts speaks the protocol. Ids, codes and tokens are kept only as SHA-256 hashes, in
// bounded stores (expiring-map.ts here, tables in compose/sql-idp-grants.ts).
import {
  IDP_CODE_TTL_MS,
  IDP_MAX_ENTRIES,
  IDP_REQUEST_TTL_MS,
  IDP_TOKEN_TTL_MS,
} from '../shared/constants.ts'
import type { Clock } from '../shared/clock.ts'
import { createRandomToken, hashToken } from '../shared/crypto.ts'
import type { IdpAccount } from './accounts.ts'
import type { AuthorizationRequest } from './authorization-request.ts'
import { createExpiringMap } from '../shared/expiring-map.ts'

export interface CodeGrant {
  clientId: string
  redirectUri: string
  codeChallenge: string
  nonce?: string
  sub: string
  scope: string[]
  /** Seconds since the epoch (the ID token's auth_time). */
  authTime: number
}

export interface AccessGrant {
  sub: string
  clientId: string
  scope: string[]
  /** The hash of the code it was issued for: a replayed code revokes it (RFC 6749 section 4.1.2). */
  codeHash: string
}

/**
 * In memory here or in the shared database (compose/sql-idp-grants.ts), with the same rules: a code is taken once,
 * a replay revokes what it bought, everything expires on the server's clock, at most IDP_MAX_ENTRIES of each.
 */
export interface Grants {
  issueCode(request: AuthorizationRequest, account: IdpAccount): Promise<string>
  /**
   * The grant of a code, taken out: a code is good for one presentation, right or wrong. `replayed` when it was
   * presented before, in which case what it bought is revoked.
   */
  takeCode(code: string): Promise<{ grant: CodeGrant } | { replayed: boolean }>
  /** A token for a code taken; null when the code was replayed meanwhile (what it bought is revoked). */
  issueAccessToken(grant: AccessGrant): Promise<string | null>
  getAccessGrant(token: string): Promise<AccessGrant | undefined>
  /** Keeps a request waiting at the sign-in form, by the random id the form carries back. */
  holdRequest(request: AuthorizationRequest): Promise<string>
  /** The request of `id`, taken out: a form is answered once. */
  takeRequest(id: string): Promise<AuthorizationRequest | null>
  clear(): Promise<void>
}

/** What a code is issued for, from the request and the account that signed in at `now`. */
export function codeGrantOf(request: AuthorizationRequest, account: IdpAccount, now: number): CodeGrant {
  return {
    clientId: request.client.client_id,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    ...(request.nonce !== undefined && { nonce: request.nonce }),
    sub: account.sub,
    scope: request.scope,
    authTime: Math.floor(now / 1000),
  }
}

export function createGrants(clock: Clock): Grants {
  const codes = createExpiringMap<CodeGrant>(clock, IDP_MAX_ENTRIES)
  // Presented codes are remembered as long as what they bought lives, so a replay can revoke it.
  const spent = createExpiringMap<{ replayed: boolean }>(clock, IDP_MAX_ENTRIES)
  const tokens = createExpiringMap<AccessGrant>(clock, IDP_MAX_ENTRIES)
  const waiting = createExpiringMap<AuthorizationRequest>(clock, IDP_MAX_ENTRIES)
  return {
    async issueCode(request, account) {
      const code = createRandomToken()
      codes.set(hashToken(code), codeGrantOf(request, account, clock.now()), IDP_CODE_TTL_MS)
      return code
    },
    async takeCode(code) {
      const codeHash = hashToken(code)
      const grant = codes.get(codeHash)
      if (grant) {
        codes.delete(codeHash)
        spent.set(codeHash, { replayed: false }, IDP_TOKEN_TTL_MS)
        return { grant }
      }
      const presented = spent.get(codeHash)
      if (!presented) return { replayed: false }
      presented.replayed = true
      tokens.deleteWhere((access) => access.codeHash === codeHash)
      return { replayed: true }
    },
    async issueAccessToken(grant) {
      if (spent.get(grant.codeHash)?.replayed) return null
      const token = createRandomToken()
      tokens.set(hashToken(token), grant, IDP_TOKEN_TTL_MS)
      return token
    },
    getAccessGrant: async (token) => tokens.get(hashToken(token)),
    async holdRequest(request) {
      const id = createRandomToken()
      waiting.set(hashToken(id), request, IDP_REQUEST_TTL_MS)
      return id
    },
    async takeRequest(id) {
      const key = hashToken(id)
      const request = waiting.get(key)
      waiting.delete(key)
      return request ?? null
    },
    async clear() {
      codes.clear()
      spent.clear()
      tokens.clear()
      waiting.clear()
    },
  }
}

/** The claims an account shows for a scope: `sub` always, the address with `email`, the name with `profile`. */
export function getClaims(account: IdpAccount, scope: string[]): Record<string, unknown> {
  return {
    sub: account.sub,
    ...(scope.includes('email') && { email: account.email, email_verified: true }),
    ...(scope.includes('profile') && { name: account.name }),
  }
}
