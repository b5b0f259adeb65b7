import { describe, expect, test } from 'vitest'
import {
  ADA,
  createFakeIdentityStore,
  GRACE,
  SIGNED_OUT,
  signedIn,
  UNKNOWN,
} from '../../test/fake-identity-store.ts'
import {
  followIdentity,
  getIdentityChange,
  INITIAL_IDENTITY_STATE,
  type IdentityChange,
  type IdentitySession,
} from './session-identity.ts'

/** The changes a follower reports along `sessions`, from a fresh start. */
function changesAlong(sessions: readonly IdentitySession[]): (IdentityChange | null)[] {
  let state = INITIAL_IDENTITY_STATE
  return sessions.map((session) => {
    const next = getIdentityChange(state, session)
    if (next) state = next.state
    return next?.change ?? null
  })
}

describe('how a change of session moves the identity', () => {
  const rows = [
    { name: 'not known yet: nothing', along: [UNKNOWN], changes: [null] },
    { name: 'known signed out: nothing to end', along: [SIGNED_OUT], changes: [{ kind: 'signed-out' }] },
    {
      name: 'signed in',
      along: [SIGNED_OUT, signedIn(ADA)],
      changes: [{ kind: 'signed-out' }, { kind: 'signed-in', user: ADA }],
    },
    {
      name: 'log-out (or a forced sign-out) after a sign-in: ended',
      along: [signedIn(ADA), SIGNED_OUT],
      changes: [
        { kind: 'signed-in', user: ADA },
        { kind: 'ended', next: null },
      ],
    },
    {
      name: 'another user without a log-out between: ended, with the next user',
      along: [signedIn(ADA), signedIn(GRACE)],
      changes: [
        { kind: 'signed-in', user: ADA },
        { kind: 'ended', next: GRACE },
      ],
    },
    {
      name: 'the same person with a new name: signed in again, not ended',
      along: [signedIn(ADA), signedIn({ ...ADA, name: 'Ada King' })],
      changes: [
        { kind: 'signed-in', user: ADA },
        { kind: 'signed-in', user: { ...ADA, name: 'Ada King' } },
      ],
    },
    {
      name: 'a user without an id is told apart by e-mail',
      along: [signedIn({ ...ADA, id: '' }), signedIn({ ...GRACE, id: '' })],
      changes: [
        { kind: 'signed-in', user: { ...ADA, id: '' } },
        { kind: 'ended', next: { ...GRACE, id: '' } },
      ],
    },
    {
      name: 'a refresh (same user, new snapshot) and a session still settling change nothing',
      along: [signedIn(ADA), { ...signedIn(ADA) }, UNKNOWN, signedIn(ADA)],
      changes: [{ kind: 'signed-in', user: ADA }, null, null, null],
    },
    {
      name: 'signed out twice: ended once',
      along: [signedIn(ADA), SIGNED_OUT, { ...SIGNED_OUT }],
      changes: [{ kind: 'signed-in', user: ADA }, { kind: 'ended', next: null }, null],
    },
    {
      name: 'a sign-in after a log-out is a plain sign-in',
      along: [signedIn(ADA), SIGNED_OUT, signedIn(GRACE)],
      changes: [
        { kind: 'signed-in', user: ADA },
        { kind: 'ended', next: null },
        { kind: 'signed-in', user: GRACE },
      ],
    },
  ] as const

  test.each(rows)('$name', ({ along, changes }) => {
    expect(changesAlong(along)).toEqual(changes)
  })
})

test('follows the store from the first settled session, and stops when told', () => {
  const store = createFakeIdentityStore(UNKNOWN)
  const seen: string[] = []
  const stop = followIdentity(store, (change) => seen.push(change.kind))
  expect(seen).toEqual([])
  store.set(signedIn(ADA))
  store.set(SIGNED_OUT)
  stop()
  store.set(signedIn(GRACE))
  expect(seen).toEqual(['signed-in', 'ended'])
  expect(store.listeners.size).toBe(0)
})

test('already signed in when it starts: reported at once', () => {
  const seen: IdentityChange[] = []
  followIdentity(createFakeIdentityStore(signedIn(ADA)), (change) => seen.push(change))
  expect(seen).toEqual([{ kind: 'signed-in', user: ADA }])
})
