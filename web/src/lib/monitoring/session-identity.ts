// Who the supporting services say the visitor is, read from the session store: the part the recorder's and the
// error reporter's identity rules share. Pure: imports nothing; the store is injected and read only through
// subscribe/getSnapshot, so the store's internals can change under it.

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
 * What a change of session means to a service that attaches an identity to what it sends:
 * - `signed-in`: a user where there was none, or the same person's fields changed: attach them;
 * - `signed-out`: the first known state is signed out, and no user was attached before: nothing to end;
 * - `ended`: the person attached so far is gone, signed out (`next` null) or replaced by another user: whatever
 *   the service sends from now on must not carry them.
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

/** One person from the next: the id, else the e-mail (the session accepts a user with only one of them). */
function getPersonKey(user: IdentityUser): string {
  return user.id || user.email
}

/**
 * The change `session` makes from `state`, and the state after it; null when there is nothing to do (the first
 * session fetch has not settled, so the visitor is neither signed in nor out, or nothing the services show changed).
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
