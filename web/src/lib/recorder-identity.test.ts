import { describe, expect, test } from 'vitest'
import type { User } from '../session/user.ts'
import { applyRecorderIdentity, syncRecorderIdentity, type IdentitySession } from './recorder-identity.ts'

/** A fake tracker that records every call, and can be told to fail. */
function createFakeTracker({ failing = false } = {}) {
  const calls: string[] = []
  return {
    calls,
    setUserID(id: string) {
      if (failing) throw new Error('tracker not ready')
      calls.push(`setUserID(${JSON.stringify(id)})`)
    },
    setMetadata(key: string, value: string) {
      calls.push(`setMetadata(${key}, ${JSON.stringify(value)})`)
    },
  }
}

function createLogger() {
  const lines: string[] = []
  return {
    lines,
    log: (message: string) => lines.push(message),
    warn: (message: string) => lines.push(`warn: ${message}`),
  }
}

const ADA: User = { id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' }
const signedIn = (user: User): IdentitySession => ({ ready: true, isLoggedIn: true, user })
const signedOut: IdentitySession = { ready: true, isLoggedIn: false, user: null }

describe('the recorder identity rules (spec 4)', () => {
  const rows = [
    {
      name: 'logged in: the e-mail is the id; userId, name and email attached',
      session: signedIn(ADA),
      calls: [
        'setUserID("ada@example.com")',
        'setMetadata(userId, "u1")',
        'setMetadata(name, "Ada Lovelace")',
        'setMetadata(email, "ada@example.com")',
      ],
      lines: ['User ID set'],
    },
    {
      name: "logged in without a name: 'Unknown User'",
      session: signedIn({ ...ADA, name: '' }),
      calls: [
        'setUserID("ada@example.com")',
        'setMetadata(userId, "u1")',
        'setMetadata(name, "Unknown User")',
        'setMetadata(email, "ada@example.com")',
      ],
      lines: ['User ID set'],
    },
    {
      name: 'logged out: the id is cleared',
      session: signedOut,
      calls: ['setUserID("")'],
      lines: ['User ID cleared (user not logged in)'],
    },
  ] as const

  test.each(rows)('$name', ({ session, calls, lines }) => {
    const tracker = createFakeTracker()
    const logger = createLogger()
    applyRecorderIdentity(tracker, session, logger)
    expect(tracker.calls).toEqual(calls)
    expect(logger.lines).toEqual(lines)
  })

  test("a failure logs 'Failed to set user ID'", () => {
    const logger = createLogger()
    applyRecorderIdentity(createFakeTracker({ failing: true }), signedIn(ADA), logger)
    expect(logger.lines).toEqual(['warn: Failed to set user ID'])
  })
})

/** A session store stand-in: subscribe/getSnapshot, and `set` to change it. */
function createFakeStore(initial: IdentitySession) {
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

describe('re-applied whenever the login state or the user changes', () => {
  test('waits for the first session fetch, then follows sign-in, a changed user and logout', () => {
    const store = createFakeStore({ ready: false, isLoggedIn: false, user: null })
    const tracker = createFakeTracker()
    const logger = createLogger()
    const stop = syncRecorderIdentity({ tracker, store, logger })
    expect(logger.lines).toEqual([])
    store.set(signedOut)
    store.set({ ...signedOut, ready: true }) // another change of the store, same identity: not re-applied
    store.set(signedIn(ADA))
    store.set({ ...signedIn(ADA) }) // a refresh: same user
    store.set(signedIn({ ...ADA, name: 'Ada King' }))
    store.set(signedOut)
    expect(logger.lines).toEqual([
      'User ID cleared (user not logged in)',
      'User ID set',
      'User ID set',
      'User ID cleared (user not logged in)',
    ])
    expect(tracker.calls.filter((call) => call.startsWith('setMetadata(name'))).toEqual([
      'setMetadata(name, "Ada Lovelace")',
      'setMetadata(name, "Ada King")',
    ])
    stop()
    expect(store.listeners.size).toBe(0)
  })

  test('already signed in when it starts: applied at once', () => {
    const store = createFakeStore(signedIn(ADA))
    const logger = createLogger()
    syncRecorderIdentity({ tracker: createFakeTracker(), store, logger })
    expect(logger.lines).toEqual(['User ID set'])
  })
})
