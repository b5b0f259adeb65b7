// Who the supporting services say the visitor is, shared by the recorder and the error reporter.
// Pure: imports nothing. The store is read only through subscribe/getSnapshot, so its internals may change.

/** The user fields the identity rules read. */
export interface IdentityUser {
  id: string
  email: string
  name: string
}

/** The part of the session store's snapshot the identity rules read. */
export interface IdentitySession {
  ready: boolean
  isLoggedIn: boolean
  user: IdentityUser | null
}

/** The part of the session store the identity rules follow. */
export interface IdentityStore {
  subscribe(listener: () => void): () => void
  getSnapshot(): IdentitySession
}

/**
 * What a change of session means to a service that attaches an identity:
 * - `signed-in`: a new user, or changed fields. Attach them.
 * - `signed-out`: signed out from the start. Nothing to end.
 * - `ended`: the attached person is gone. Nothing sent from now on may carry them.
 */
export type IdentityChange =
  | { kind: 'signed-in'; user: IdentityUser }
  | { kind: 'signed-out' }
  | { kind: 'ended'; next: IdentityUser | null }

/** What a follower remembers: the fields last applied, and the person they belong to. */
export interface IdentityState {
  applied: string | null
  person: string | null
}

export const INITIAL_IDENTITY_STATE: IdentityState = { applied: null, person: null }

/** The signed-in user, or null when signed out. */
export function getSignedInUser(session: IdentitySession): IdentityUser | null {
  return session.isLoggedIn && session.user ? session.user : null
}

/** Tells one person from the next: the id, else the e-mail (a user may have only one). */
function getPersonKey(user: IdentityUser): string {
  return user.id || user.email
}

/**
 * The change `session` makes from `state`, and the state after it.
 * Null when nothing is known yet or nothing the services show changed.
 * @example
 * getIdentityChange({ applied: '["u1","ada@example.com","Ada"]', person: 'u1' }, signedOut)
 * // { change: { kind: 'ended', next: null }, state: { applied: 'signed-out', person: null } }
 */
export function getIdentityChange(
  state: IdentityState,
  session: IdentitySession,
): { change: IdentityChange; state: IdentityState } | null {
  if (!session.ready) return null
  const user = getSignedInUser(session)
  const applied = user ? JSON.stringify([user.id, user.email, user.name]) : 'signed-out'
  if (applied === state.applied) return null
  const person = user ? getPersonKey(user) : null
  const change: IdentityChange =
    state.person !== null && person !== state.person
      ? { kind: 'ended', next: user }
      : user
        ? { kind: 'signed-in', user }
        : { kind: 'signed-out' }
  return { change, state: { applied, person } }
}

/**
 * Calls `handleChange` once the first session fetch has settled, then whenever the signed-in user, or one of their
 * fields, changes. Returns a function that stops following.
 * @example
 * const stop = followIdentity(store, (change) => console.log(change.kind)) // 'signed-in', later 'ended'
 */
export function followIdentity(
  store: IdentityStore,
  handleChange: (change: IdentityChange) => void,
): () => void {
  let state = INITIAL_IDENTITY_STATE
  const follow = () => {
    const next = getIdentityChange(state, store.getSnapshot())
    if (next === null) return
    state = next.state
    handleChange(next.change)
  }
  const unsubscribe = store.subscribe(follow)
  follow()
  return unsubscribe
}
