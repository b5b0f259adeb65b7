// The session recorder's identity rules (docs/decisions/008): signed in, the recording's user id is the e-mail and
// userId, name (default 'Unknown User') and email are attached, logging 'User ID set'; signed out, the id is cleared,
// logging 'User ID cleared (user not logged in)'; a failure logs 'Failed to set user ID'. When the user a recording
// carries goes (log-out, a forced sign-out, another user), that recording ends and a new one starts: the tracker
// never sends an empty id, so only a new recording is free of the old user. Pure rules over an injected tracker,
// store and log; no SDK import.
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
 * Ends the recording that carries the user who went, and starts a new one for `next`: anonymous when signed out,
 * else with `next`'s identity in the start call (a new recording forgets what was set before it).
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
   * Give it every start the tracker makes, its own restarts included (a page hidden for long, a refused batch). Those
   * reuse the options of the last start, after an ending `forceNew` without a user: without this, the recording of
   * a user who signed in after a log-out would restart anonymous.
   */
  handleTrackerStarted(): void
  /** Stops following the session (the tracker itself is the caller's to stop). */
  stop(): void
}

/**
 * Applies the identity once the first session fetch has settled (before the first start when it is known by then,
 * so the start call carries it), then follows the session. Tracker calls run one after another: a restart waits
 * for the start before it, since a stop while the tracker is starting does not stop it.
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
