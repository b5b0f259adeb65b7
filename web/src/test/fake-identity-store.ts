// A stand-in for the session store as the identity rules see it (lib/monitoring/session-identity.ts).
import type { IdentitySession, IdentityUser } from '../lib/monitoring/session-identity.ts'

export const ADA: IdentityUser = { id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' }
export const GRACE: IdentityUser = { id: 'u2', email: 'grace@example.com', name: 'Grace Hopper' }

/** The first session fetch has not settled: neither signed in nor out. */
export const UNKNOWN: IdentitySession = { ready: false, isLoggedIn: false, user: null }
export const SIGNED_OUT: IdentitySession = { ready: true, isLoggedIn: false, user: null }
export const signedIn = (user: IdentityUser): IdentitySession => ({ ready: true, isLoggedIn: true, user })

export function createFakeIdentityStore(initial: IdentitySession) {
  let snapshot = initial
  const listeners = new Set<() => void>()
  return {
    getSnapshot: () => snapshot,
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    set(next: IdentitySession) {
      snapshot = next
      listeners.forEach((listener) => listener())
    },
    listeners,
  }
}
