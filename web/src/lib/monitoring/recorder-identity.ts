// The session recorder's identity rules (docs/decisions/008). Pure: no SDK import; tracker, store and log are injected.
// When the user goes, the recording ends and a new one starts. The tracker never sends an empty id, so only a new
// recording is free of the old user.
import {
  RECORDER_LOG_USER_CLEARED,
  RECORDER_LOG_USER_FAILED,
  RECORDER_LOG_USER_SET,
  RECORDER_UNKNOWN_USER_NAME,
} from '../config/constants.ts'
import { followIdentity, getSignedInUser, type IdentityStore, type IdentityUser } from './session-identity.ts'

/** What a (re)start may carry; the names are @openreplay/tracker's `StartOptions`. */
export interface RecorderStartOptions {
  /** A new recording, not the one the tab's session storage names. */
  forceNew?: boolean
  userID?: string
  metadata?: Record<string, string>
}

/** The part of the tracker the identity rules use. */
export interface IdentityTracker {
  setUserID(id: string): void
  setMetadata(key: string, value: string): void
  start(options?: RecorderStartOptions): Promise<unknown>
  stop(): unknown
}

export interface RecorderLogger {
  log(message: string): void
  warn(message: string, error: unknown): void
}

export const RECORDER_LOG_RESTART_FAILED = 'Failed to restart the session recorder:'

/**
 * The recording identity of a signed-in user.
 * @example
 * getRecorderIdentity({ id: 'u1', email: 'ada@example.com', name: '' })
 * // { userID: 'ada@example.com', metadata: { userId: 'u1', name: 'Unknown User', email: 'ada@example.com' } }
 */
export function getRecorderIdentity(user: IdentityUser): Required<Omit<RecorderStartOptions, 'forceNew'>> {
  return {
    userID: user.email,
    metadata: { userId: user.id, name: user.name || RECORDER_UNKNOWN_USER_NAME, email: user.email },
  }
}

function sendIdentity(tracker: IdentityTracker, user: IdentityUser) {
  const { userID, metadata } = getRecorderIdentity(user)
  tracker.setUserID(userID)
  for (const [key, value] of Object.entries(metadata)) tracker.setMetadata(key, value)
}

/**
 * Applies `user`'s identity to the running recording, or clears it (`null`), once.
 * @example
 * applyRecorderIdentity(tracker, { id: 'u1', email: 'ada@example.com', name: 'Ada' }, console) // logs 'User ID set'
 */
export function applyRecorderIdentity(
  tracker: IdentityTracker,
  user: IdentityUser | null,
  logger: RecorderLogger,
) {
  try {
    if (user) sendIdentity(tracker, user)
    else tracker.setUserID('') // the tracker's own state only: it sends nothing for an empty id
    logger.log(user ? RECORDER_LOG_USER_SET : RECORDER_LOG_USER_CLEARED)
  } catch (error) {
    logger.warn(RECORDER_LOG_USER_FAILED, error)
  }
}

/**
 * Ends the recording of the user who went and starts one for `next`.
 * The identity rides in the start call, since a new recording forgets what was set before.
 */
export function restartRecording(
  tracker: IdentityTracker,
  next: IdentityUser | null,
  logger: RecorderLogger,
): Promise<unknown> {
  if (next === null) applyRecorderIdentity(tracker, null, logger)
  tracker.stop()
  if (next === null) return tracker.start({ forceNew: true })
  const started = tracker.start({ forceNew: true, ...getRecorderIdentity(next) })
  logger.log(RECORDER_LOG_USER_SET)
  return started
}

export interface RecorderIdentity {
  /** Settles once the first start has; rejects only when the tracker throws (a refused start call is a result). */
  started: Promise<unknown>
  /**
   * Give it every start, the tracker's own restarts included.
   * Otherwise a user who signed in after a log-out would be recorded anonymous after a restart.
   */
  handleTrackerStarted(): void
  /** Stops following the session (the tracker itself is the caller's to stop). */
  stop(): void
}

/**
 * Applies the identity once the first session fetch settles, then follows the session.
 * Tracker calls run in order, because a stop during a start does not stop it.
 */
export function followRecorderIdentity({
  tracker,
  store,
  logger,
}: {
  tracker: IdentityTracker
  store: IdentityStore
  logger: RecorderLogger
}): RecorderIdentity {
  let queue: Promise<unknown> = Promise.resolve()
  const enqueue = (step: () => unknown) =>
    (queue = queue.then(step).catch((error: unknown) => logger.warn(RECORDER_LOG_RESTART_FAILED, error)))
  const unsubscribe = followIdentity(store, (change) => {
    if (change.kind === 'ended') enqueue(() => restartRecording(tracker, change.next, logger))
    else
      enqueue(() => applyRecorderIdentity(tracker, change.kind === 'signed-in' ? change.user : null, logger))
  })
  // The first start's failure is the caller's to report; the queue goes on after it.
  const started = queue.then(() => tracker.start())
  queue = started.catch(() => {})
  return {
    started,
    handleTrackerStarted() {
      const session = store.getSnapshot()
      const user = session.ready ? getSignedInUser(session) : null
      try {
        if (user) sendIdentity(tracker, user)
      } catch (error) {
        logger.warn(RECORDER_LOG_USER_FAILED, error)
      }
    },
    stop: unsubscribe,
  }
}
