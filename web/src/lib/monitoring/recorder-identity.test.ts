import { describe, expect, test } from 'vitest'
import { flush } from '../../test/fake-clock.ts'
import {
  ADA,
  createFakeIdentityStore,
  GRACE,
  SIGNED_OUT,
  signedIn,
  UNKNOWN,
} from '../../test/fake-identity-store.ts'
import {
  applyRecorderIdentity,
  followRecorderIdentity,
  restartRecording,
  type RecorderStartOptions,
} from './recorder-identity.ts'

/**
 * A fake tracker that records every call in order. `start` settles at once, or, with `holdStarts`, when the test
 * calls `finishStart()`; `failing` makes the identity calls throw, `rejecting` the starts.
 */
function createFakeTracker({ failing = false, holdStarts = false, rejecting = false } = {}) {
  const calls: string[] = []
  const held: (() => void)[] = []
  return {
    calls,
    setUserID(id: string) {
      if (failing) throw new Error('tracker not ready')
      calls.push(`setUserID(${JSON.stringify(id)})`)
    },
    setMetadata(key: string, value: string) {
      calls.push(`setMetadata(${key}, ${JSON.stringify(value)})`)
    },
    start(options?: RecorderStartOptions) {
      calls.push(options ? `start(${JSON.stringify(options)})` : 'start()')
      if (rejecting) return Promise.reject(new Error('Trying to start not in browser.'))
      return holdStarts ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve()
    },
    stop() {
      calls.push('stop()')
    },
    finishStart: () => held.shift()!(),
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

const ADA_IDENTITY = [
  'setUserID("ada@example.com")',
  'setMetadata(userId, "u1")',
  'setMetadata(name, "Ada Lovelace")',
  'setMetadata(email, "ada@example.com")',
]
const GRACE_IDENTITY = [
  'setUserID("grace@example.com")',
  'setMetadata(userId, "u2")',
  'setMetadata(name, "Grace Hopper")',
  'setMetadata(email, "grace@example.com")',
]
const NEW_ANONYMOUS_RECORDING = ['stop()', 'start({"forceNew":true})']

describe('the recorder identity rules', () => {
  const rows = [
    {
      name: 'signed in: the e-mail is the id; userId, name and email attached',
      user: ADA,
      calls: ADA_IDENTITY,
      lines: ['User ID set'],
    },
    {
      name: "signed in without a name: 'Unknown User'",
      user: { ...ADA, name: '' },
      calls: [...ADA_IDENTITY.slice(0, 2), 'setMetadata(name, "Unknown User")', ADA_IDENTITY[3]],
      lines: ['User ID set'],
    },
    {
      name: 'signed out: the id is cleared',
      user: null,
      calls: ['setUserID("")'],
      lines: ['User ID cleared (user not logged in)'],
    },
  ] as const

  test.each(rows)('$name', ({ user, calls, lines }) => {
    const tracker = createFakeTracker()
    const logger = createLogger()
    applyRecorderIdentity(tracker, user, logger)
    expect(tracker.calls).toEqual(calls)
    expect(logger.lines).toEqual(lines)
  })

  test("a failure logs 'Failed to set user ID'", () => {
    const logger = createLogger()
    applyRecorderIdentity(createFakeTracker({ failing: true }), ADA, logger)
    expect(logger.lines).toEqual(['warn: Failed to set user ID'])
  })
})

describe('a recording whose user goes ends, and a new one starts', () => {
  test('signed out: the id cleared, then a new anonymous recording', async () => {
    const tracker = createFakeTracker()
    const logger = createLogger()
    await restartRecording(tracker, null, logger)
    expect(tracker.calls).toEqual(['setUserID("")', ...NEW_ANONYMOUS_RECORDING])
    expect(logger.lines).toEqual(['User ID cleared (user not logged in)'])
  })

  test('another user: a new recording whose start carries the new identity', async () => {
    const tracker = createFakeTracker()
    const logger = createLogger()
    await restartRecording(tracker, GRACE, logger)
    expect(tracker.calls).toEqual([
      'stop()',
      'start({"forceNew":true,"userID":"grace@example.com","metadata":{"userId":"u2","name":"Grace Hopper","email":"grace@example.com"}})',
    ])
    expect(logger.lines).toEqual(['User ID set'])
  })
})

describe('following the session', () => {
  test('log-out: the recording restarts anonymous; a new sign-in sets the new user on the new recording', async () => {
    const store = createFakeIdentityStore(signedIn(ADA))
    const tracker = createFakeTracker()
    const logger = createLogger()
    const identity = followRecorderIdentity({ tracker, store, logger })
    await identity.started
    expect(tracker.calls).toEqual([...ADA_IDENTITY, 'start()']) // identity first: the start call carries it

    tracker.calls.length = 0
    store.set(SIGNED_OUT)
    await flush()
    expect(tracker.calls).toEqual(['setUserID("")', ...NEW_ANONYMOUS_RECORDING])

    tracker.calls.length = 0
    store.set(signedIn(GRACE))
    await flush()
    expect(tracker.calls).toEqual(GRACE_IDENTITY) // on the recording started at the log-out, no restart
    expect(logger.lines).toEqual(['User ID set', 'User ID cleared (user not logged in)', 'User ID set'])
  })

  test('nothing of the old user reaches the tracker after the log-out', async () => {
    const store = createFakeIdentityStore(signedIn(ADA))
    const tracker = createFakeTracker()
    const identity = followRecorderIdentity({ tracker, store, logger: createLogger() })
    await identity.started
    store.set(SIGNED_OUT)
    await flush()
    identity.handleTrackerStarted() // the new recording's start
    store.set({ ...SIGNED_OUT })
    await flush()
    const stopped = tracker.calls.indexOf('stop()')
    expect(stopped).toBeGreaterThan(0)
    const afterStop = tracker.calls.slice(stopped)
    expect(afterStop.filter((call) => /ada|u1|Ada/.test(call))).toEqual([])
  })

  test('another user without a log-out between: a new recording, started with the new user', async () => {
    const store = createFakeIdentityStore(signedIn(ADA))
    const tracker = createFakeTracker()
    const identity = followRecorderIdentity({ tracker, store, logger: createLogger() })
    await identity.started
    tracker.calls.length = 0
    store.set(signedIn(GRACE))
    await flush()
    expect(tracker.calls).toEqual([
      'stop()',
      expect.stringMatching(/^start\(\{"forceNew":true,"userID":"grace@/),
    ])
  })

  test('the same user with a new name: the same recording, the metadata again', async () => {
    const store = createFakeIdentityStore(signedIn(ADA))
    const tracker = createFakeTracker()
    const identity = followRecorderIdentity({ tracker, store, logger: createLogger() })
    await identity.started
    tracker.calls.length = 0
    store.set(signedIn({ ...ADA, name: 'Ada King' }))
    await flush()
    expect(tracker.calls).toEqual([
      ...ADA_IDENTITY.slice(0, 2),
      'setMetadata(name, "Ada King")',
      ADA_IDENTITY[3],
    ])
  })

  test('signed out from the start: cleared, never restarted', async () => {
    const store = createFakeIdentityStore(UNKNOWN)
    const tracker = createFakeTracker()
    const logger = createLogger()
    const identity = followRecorderIdentity({ tracker, store, logger })
    await identity.started
    expect(tracker.calls).toEqual(['start()']) // the session was not known yet: an anonymous start
    store.set(SIGNED_OUT)
    await flush()
    expect(tracker.calls).toEqual(['start()', 'setUserID("")'])
    expect(logger.lines).toEqual(['User ID cleared (user not logged in)'])
  })

  test('a log-out while the tracker is still starting: the restart waits for that start', async () => {
    const store = createFakeIdentityStore(signedIn(ADA))
    const tracker = createFakeTracker({ holdStarts: true })
    followRecorderIdentity({ tracker, store, logger: createLogger() })
    await flush()
    store.set(SIGNED_OUT)
    await flush()
    expect(tracker.calls).toEqual([...ADA_IDENTITY, 'start()'])
    tracker.finishStart()
    await flush()
    expect(tracker.calls.slice(-3)).toEqual(['setUserID("")', ...NEW_ANONYMOUS_RECORDING])
  })

  test("the tracker's own restarts get the identity of the moment", async () => {
    const store = createFakeIdentityStore(signedIn(ADA))
    const tracker = createFakeTracker()
    const identity = followRecorderIdentity({ tracker, store, logger: createLogger() })
    await identity.started
    tracker.calls.length = 0
    identity.handleTrackerStarted()
    expect(tracker.calls).toEqual(ADA_IDENTITY)
    store.set(SIGNED_OUT)
    await flush()
    tracker.calls.length = 0
    identity.handleTrackerStarted()
    expect(tracker.calls).toEqual([]) // an anonymous recording stays anonymous
  })

  test('a start that fails is reported by `started`; a later restart that fails is logged', async () => {
    const store = createFakeIdentityStore(signedIn(ADA))
    const logger = createLogger()
    const identity = followRecorderIdentity({
      tracker: createFakeTracker({ rejecting: true }),
      store,
      logger,
    })
    await expect(identity.started).rejects.toThrow('Trying to start not in browser.')
    store.set(SIGNED_OUT)
    await flush()
    expect(logger.lines.at(-1)).toBe('warn: Failed to restart the session recorder:')
  })

  test('stops following when told', async () => {
    const store = createFakeIdentityStore(signedIn(ADA))
    const identity = followRecorderIdentity({ tracker: createFakeTracker(), store, logger: createLogger() })
    await identity.started
    identity.stop()
    expect(store.listeners.size).toBe(0)
  })
})
