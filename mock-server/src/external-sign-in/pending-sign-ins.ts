// The external sign-ins the product waits to hear back from, kept on the server so the nonce and PKCE verifier
// never reach the browser. A cookie (`sso`) binds each to its browser, so a stolen code and state sign no one in.
// Single use and capped (docs/decisions/022-openid-provider.md).
import { EXTERNAL_SIGN_IN_TTL_MS, MAX_PENDING_SIGN_INS } from '../shared/constants.ts'
import type { Clock } from '../shared/clock.ts'
import { hashToken, safeEqual } from '../shared/crypto.ts'
import { createExpiringMap } from '../shared/expiring-map.ts'
import type { PendingSignIn } from './types.ts'

/** In memory here, or in the database every instance shares (compose/sql-sign-ins.ts), with the same rules. */
export interface PendingSignIns {
  /** Keeps `pending` for the sign-in of `state`, bound to the browser holding `binding` (the cookie's value). */
  add(state: string, binding: string, pending: PendingSignIn): Promise<void>
  /** The sign-in of `state`, taken out, when the browser holds its binding; null otherwise (and it stays). */
  take(state: string, binding: string | undefined): Promise<PendingSignIn | null>
  clear(): Promise<void>
}

/**
 * @example
 * const signIns = createPendingSignIns(clock)
 * await signIns.add(state, cookie, pending)
 * await signIns.take(state, cookie) // pending, then null
 */
export function createPendingSignIns(clock: Clock): PendingSignIns {
  const entries = createExpiringMap<{ binding: string; pending: PendingSignIn }>(clock, MAX_PENDING_SIGN_INS)
  return {
    async add(state, binding, pending) {
      entries.set(hashToken(state), { binding: hashToken(binding), pending }, EXTERNAL_SIGN_IN_TTL_MS)
    },
    async take(state, binding) {
      const key = hashToken(state)
      const entry = entries.get(key)
      if (!entry || binding === undefined || !safeEqual(entry.binding, hashToken(binding))) return null
      entries.delete(key)
      return entry.pending
    },
    clear: async () => entries.clear(),
  }
}
