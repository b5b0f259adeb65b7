// What the OpenID provider hands out and takes back: codes, access tokens, ID token claims. No HTTP here; token.ts
// speaks the protocol. Codes and tokens are kept only as SHA-256 hashes, in bounded stores (expiring-map.ts).
import { IDP_CODE_TTL_MS, IDP_MAX_ENTRIES, IDP_TOKEN_TTL_MS } from '../shared/constants.ts'
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

export interface Grants {
  issueCode(request: AuthorizationRequest, account: IdpAccount): string
  /**
   * The grant of a code, taken out: a code is good for one presentation, right or wrong. `replayed` when it was
   * presented before, in which case what it bought is revoked.
   */
  takeCode(code: string): { grant: CodeGrant } | { replayed: boolean }
  issueAccessToken(grant: AccessGrant): string
  getAccessGrant(token: string): AccessGrant | undefined
  clear(): void
}

export function createGrants(clock: Clock): Grants {
  const codes = createExpiringMap<CodeGrant>(clock, IDP_MAX_ENTRIES)
  // Presented codes are remembered as long as what they bought lives, so a replay can revoke it.
  const spent = createExpiringMap<true>(clock, IDP_MAX_ENTRIES)
  const tokens = createExpiringMap<AccessGrant>(clock, IDP_MAX_ENTRIES)
  return {
    issueCode(request, account) {
      const code = createRandomToken()
      codes.set(
        hashToken(code),
        {
          clientId: request.client.client_id,
          redirectUri: request.redirectUri,
          codeChallenge: request.codeChallenge,
          ...(request.nonce !== undefined && { nonce: request.nonce }),
          sub: account.sub,
          scope: request.scope,
          authTime: Math.floor(clock.now() / 1000),
        },
        IDP_CODE_TTL_MS,
      )
      return code
    },
    takeCode(code) {
      const codeHash = hashToken(code)
      const grant = codes.get(codeHash)
      if (grant) {
        codes.delete(codeHash)
        spent.set(codeHash, true, IDP_TOKEN_TTL_MS)
        return { grant }
      }
      const replayed = spent.get(codeHash) === true
      if (replayed) tokens.deleteWhere((access) => access.codeHash === codeHash)
      return { replayed }
    },
    issueAccessToken(grant) {
      const token = createRandomToken()
      tokens.set(hashToken(token), grant, IDP_TOKEN_TTL_MS)
      return token
    },
    getAccessGrant: (token) => tokens.get(hashToken(token)),
    clear() {
      codes.clear()
      spent.clear()
      tokens.clear()
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
