// The session recorder's identity rules (spec 4): logged in, the user id is the e-mail and userId, name (default
// 'Unknown User') and email are attached, logging 'User ID set'; logged out, the id is cleared, logging 'User ID
// cleared (user not logged in)'; a failure logs 'Failed to set user ID'; re-applied whenever the login state or the
// user changes. Pure rules over an injected tracker, store and log.
import type { User } from '../session/user.ts'
import {
  RECORDER_LOG_USER_CLEARED,
  RECORDER_LOG_USER_FAILED,
  RECORDER_LOG_USER_SET,
  RECORDER_UNKNOWN_USER_NAME,
} from './constants.ts'

/** The part of the tracker the identity rules use. */
export interface IdentityTracker {
  setUserID(id: string): void
  setMetadata(key: string, value: string): void
}

export interface IdentitySession {
  ready: boolean
  isLoggedIn: boolean
  user: User | null
}

export interface RecorderLogger {
  log(message: string): void
  warn(message: string, error: unknown): void
}

/**
 * Applies the identity of `session` to the tracker, once.
 * @example
 * applyRecorderIdentity(tracker, { ready: true, isLoggedIn: true, user }, console) // logs 'User ID set'
 */
export function applyRecorderIdentity(
  tracker: IdentityTracker,
  session: IdentitySession,
  logger: RecorderLogger,
) {
  try {
    if (session.isLoggedIn && session.user) {
      const { id, email, name } = session.user
      tracker.setUserID(email)
      tracker.setMetadata('userId', id)
      tracker.setMetadata('name', name || RECORDER_UNKNOWN_USER_NAME)
      tracker.setMetadata('email', email)
      logger.log(RECORDER_LOG_USER_SET)
    } else {
      tracker.setUserID('')
      logger.log(RECORDER_LOG_USER_CLEARED)
    }
  } catch (error) {
    logger.warn(RECORDER_LOG_USER_FAILED, error)
  }
}

/** What the identity depends on: the login state and the user's fields. */
export function getIdentityKey(session: IdentitySession): string {
  return session.isLoggedIn && session.user
    ? JSON.stringify([session.user.id, session.user.email, session.user.name])
    : 'logged-out'
}

/**
 * Follows the session store: applies the identity once the first session fetch has settled, then again whenever
 * the login state or the user changes. Returns a function that stops following.
 */
export function syncRecorderIdentity({
  tracker,
  store,
  logger,
}: {
  tracker: IdentityTracker
  store: { subscribe(listener: () => void): () => void; getSnapshot(): IdentitySession }
  logger: RecorderLogger
}): () => void {
  let applied: string | null = null
  const follow = () => {
    const session = store.getSnapshot()
    if (!session.ready) return // the session is not known yet: neither logged in nor out
    const key = getIdentityKey(session)
    if (key === applied) return
    applied = key
    applyRecorderIdentity(tracker, session, logger)
  }
  const unsubscribe = store.subscribe(follow)
  follow()
  return unsubscribe
}
