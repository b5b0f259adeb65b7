// The error reporter's identity rules (docs/decisions/008): signed in, events carry the user's id and e-mail;
// from any ending of the session on (log-out, a forced sign-out, a failed refresh, another user), they carry no
// user, and the release-health session that saw the old user ends. Pure rules over an injected SDK and store: no
// SDK import, only its types.
import type { User } from '@sentry/react'
import { followIdentity, type IdentityStore, type IdentityUser } from './session-identity.ts'

/** The part of the Sentry SDK the identity rules use. */
export interface SentryIdentitySdk {
  setUser(user: User | null): void
  startSession(): unknown
  captureSession(): void
}

/**
 * The user as events carry it: the id and the e-mail (the recorder already names the user by e-mail), no more.
 * @example
 * getSentryUser({ id: 'u1', email: 'ada@example.com', name: 'Ada' }) // { id: 'u1', email: 'ada@example.com' }
 */
export function getSentryUser(user: IdentityUser): User {
  return { ...(user.id && { id: user.id }), ...(user.email && { email: user.email }) }
}

/**
 * Follows the session store: sets the user once the first session fetch has settled, then whenever it changes.
 * Returns a function that stops following.
 * @example
 * followSentryIdentity({ sdk: Sentry, store }) // before the reporter takes its waiting errors
 */
export function followSentryIdentity({
  sdk,
  store,
}: {
  sdk: SentryIdentitySdk
  store: IdentityStore
}): () => void {
  return followIdentity(store, (change) => {
    if (change.kind !== 'ended') {
      sdk.setUser(change.kind === 'signed-in' ? getSentryUser(change.user) : null)
      return
    }
    sdk.setUser(change.next ? getSentryUser(change.next) : null)
    // A release-health session keeps the first user it saw (its `did`) whatever setUser says later: end it and
    // start one for whoever is here now, sent at once so the old one is closed at the ending.
    sdk.startSession()
    sdk.captureSession()
  })
}
