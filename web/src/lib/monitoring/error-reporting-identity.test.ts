import { expect, test } from 'vitest'
import {
  ADA,
  createFakeIdentityStore,
  GRACE,
  SIGNED_OUT,
  signedIn,
  UNKNOWN,
} from '../../test/fake-identity-store.ts'
import type { IdentitySession } from './session-identity.ts'
import { followSentryIdentity, getSentryUser } from './error-reporting.ts'

/** A fake SDK that records its calls in order. */
function createFakeSdk() {
  const calls: string[] = []
  return {
    calls,
    setUser: (user: unknown) => void calls.push(`setUser(${JSON.stringify(user)})`),
    startSession: () => void calls.push('startSession()'),
    captureSession: () => void calls.push('captureSession()'),
  }
}

const ADA_USER = 'setUser({"id":"u1","email":"ada@example.com"})'
const GRACE_USER = 'setUser({"id":"u2","email":"grace@example.com"})'
const NEW_RELEASE_HEALTH_SESSION = ['startSession()', 'captureSession()']

const rows = [
  { name: 'not known yet: nothing', along: [UNKNOWN], calls: [] },
  { name: 'signed out from the start: no user', along: [UNKNOWN, SIGNED_OUT], calls: ['setUser(null)'] },
  {
    name: 'signed in: id and e-mail',
    along: [SIGNED_OUT, signedIn(ADA)],
    calls: ['setUser(null)', ADA_USER],
  },
  {
    name: 'log-out, a forced sign-out or a failed refresh: no user, and a new release-health session',
    along: [signedIn(ADA), SIGNED_OUT],
    calls: [ADA_USER, 'setUser(null)', ...NEW_RELEASE_HEALTH_SESSION],
  },
  {
    name: 'another user without a log-out between: the new user, and a new release-health session',
    along: [signedIn(ADA), signedIn(GRACE)],
    calls: [ADA_USER, GRACE_USER, ...NEW_RELEASE_HEALTH_SESSION],
  },
  {
    name: 'a sign-in after a log-out: the new user on the session started at the log-out',
    along: [signedIn(ADA), SIGNED_OUT, signedIn(GRACE)],
    calls: [ADA_USER, 'setUser(null)', ...NEW_RELEASE_HEALTH_SESSION, GRACE_USER],
  },
  {
    name: 'a refresh of the same user: nothing again',
    along: [signedIn(ADA), { ...signedIn(ADA) }],
    calls: [ADA_USER],
  },
] as const

test.each(rows)('$name', ({ along, calls }) => {
  const [first, ...rest] = along as readonly IdentitySession[]
  const store = createFakeIdentityStore(first!)
  const sdk = createFakeSdk()
  followSentryIdentity({ sdk, store })
  rest.forEach((session) => store.set(session))
  expect(sdk.calls).toEqual(calls)
})

test('a user without an id or an e-mail leaves that field out', () => {
  expect(getSentryUser({ id: '', email: 'ada@example.com', name: '' })).toEqual({ email: 'ada@example.com' })
  expect(getSentryUser({ id: 'u1', email: '', name: '' })).toEqual({ id: 'u1' })
})

test('stops following when told', () => {
  const store = createFakeIdentityStore(signedIn(ADA))
  const sdk = createFakeSdk()
  const stop = followSentryIdentity({ sdk, store })
  stop()
  store.set(SIGNED_OUT)
  expect(sdk.calls).toEqual([ADA_USER])
})
