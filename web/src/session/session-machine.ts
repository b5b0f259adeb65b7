// The session life cycle as one pure transition: (state, event, now) -> { state, effects }.
// Must not import React, fetch, storage or timers, nor read the clock. session-store.ts runs the effects.
// The rules are in docs/session-life-cycle.md. Over 300 lines on purpose, so every rule sits in one place.
//
// The race rule: every session has a generation. A sign-in, and anything that ends a session, starts the next.
// An answer counts only in the generation that asked for it. Any other answer is dropped whole.
import { getSignOutMessage, REFRESH_FAILED_MESSAGE, type ErrorBody } from '../api/error-messages.ts'
import { PATHS } from '../lib/config/paths.ts'
import { REFRESH_INTERVAL_MS } from './constants.ts'
import type { TokenPair } from './token-storage.ts'
import type { User } from './user.ts'

/** What the tab holds in storage when an event happens (either may be missing). */
export interface Stored {
  accessToken: string | null
  refreshToken: string | null
}

/** The refresh in flight: one at a time (single flight), and the calls waiting for its access token. */
export interface Flight {
  id: number
  /** The refresh token it was started with (it is sent once this tab holds the cross-tab lock). */
  refreshToken: string
  waiters: number[]
}

export interface SessionState {
  /** The session's number; every ending and every sign-in starts the next. */
  generation: number
  /** True once the first session fetch has settled, or something ended or began a session. */
  ready: boolean
  user: User | null
  /** Whether this session holds both tokens. */
  hasTokens: boolean
  refresh: Flight | null
  timerRunning: boolean
  lastRefreshAt: number | null
  /** The session ended in this tab. The guard then sends to plain /login, without a redirect. */
  signedOut: boolean
  /** A log-out is waiting for the server. */
  loggingOut: boolean
  /** The next id for a flight. */
  nextFlight: number
}

export type PasswordUpdate = 'reset' | 'signed-in'

/** Events the store reports. `generation` is the generation the answer was asked for in. */
export type SessionEvent =
  | { type: 'STARTED'; stored: Stored }
  | { type: 'SESSION_LOADED'; generation: number; user: User | null }
  | { type: 'SIGNED_IN'; generation: number; user: User | null; tokens: TokenPair; redirect: string }
  | { type: 'PASSWORD_UPDATED'; generation: number; via: PasswordUpdate }
  | { type: 'TIMER_TICKED'; stored: Stored }
  | { type: 'REFRESH_REQUESTED'; call: number; stored: Stored }
  | { type: 'LOCK_GRANTED'; flight: number; stored: Stored }
  | { type: 'REFRESH_ANSWERED'; flight: number; tokens: TokenPair | null }
  | {
      type: 'UNAUTHORIZED'
      call: number
      /** The generation the refused call was sent in, and the access token it carried. */
      sent: { generation: number; token: string }
      body: ErrorBody | null
      stored: Stored
    }
  | { type: 'RETRY_ANSWERED'; generation: number; status: number; body: ErrorBody | null }
  | {
      type: 'ROTATION_HEARD'
      tokens: TokenPair
      retired: string
      held: { token: string; digest: string }
      stored: Stored
    }
  | { type: 'LOGGED_OUT_ELSEWHERE' }
  | { type: 'LOGOUT_REQUESTED'; stored: Stored }
  | { type: 'LOGOUT_ANSWERED'; generation: number }

export type SessionEffect =
  | { type: 'fetchSession'; generation: number }
  | { type: 'acquireLock'; flight: number }
  | { type: 'sendRefresh'; flight: number; refreshToken: string }
  | { type: 'releaseLock'; flight: number }
  /** Answers waiting calls: the access token to retry with, or null to give up. */
  | { type: 'resume'; calls: number[]; accessToken: string | null }
  | { type: 'storeTokens'; tokens: TokenPair }
  | { type: 'clearTokens' }
  | { type: 'announceRotation'; retiredRefreshToken: string; tokens: TokenPair }
  | { type: 'announceLogout' }
  | { type: 'startTimer'; intervalMs: number }
  | { type: 'stopTimer' }
  | { type: 'deleteSession'; generation: number; accessToken: string | null }
  | { type: 'log'; message: string }
  | { type: 'notify'; kind: 'error' | 'success'; message: string }
  | { type: 'navigate'; to: string; replace?: boolean }

export interface Transition {
  state: SessionState
  effects: SessionEffect[]
}

export const NO_REFRESH_TOKEN = 'No refresh token available'
export const REFRESH_FAILED = 'Token refresh failed'
export const PASSWORD_CHANGED_MESSAGE = 'Your password has been changed.'
export const PASSWORD_RESET_MESSAGE = 'Your password has been changed. Please sign in with it.'

export const initialSessionState: SessionState = {
  generation: 0,
  ready: false,
  user: null,
  hasTokens: false,
  refresh: null,
  timerRunning: false,
  lastRefreshAt: null,
  signedOut: false,
  loggingOut: false,
  nextFlight: 1,
}

const hasPair = (stored: Stored) => stored.accessToken !== null && stored.refreshToken !== null
const same = (state: SessionState): Transition => ({ state, effects: [] })
const resume = (calls: number[], accessToken: string | null): SessionEffect[] =>
  calls.length > 0 ? [{ type: 'resume', calls, accessToken }] : []
const startTimer: SessionEffect = { type: 'startTimer', intervalMs: REFRESH_INTERVAL_MS }

/** Whether this tab holds a session that can end (a user, tokens, a refresh or a log-out under way). */
function hasSession(state: SessionState): boolean {
  return state.user !== null || state.hasTokens || state.refresh !== null
}

/** Ends the session and starts the next generation. `signedOut` tells the guard to send to plain /login. */
function end(state: SessionState, signedOut: boolean): Transition {
  const effects: SessionEffect[] = [{ type: 'clearTokens' }]
  if (state.timerRunning) effects.push({ type: 'stopTimer' })
  effects.push(...resume(state.refresh?.waiters ?? [], null))
  return {
    state: {
      ...state,
      generation: state.generation + 1,
      ready: true,
      user: null,
      hasTokens: false,
      refresh: null,
      timerRunning: false,
      signedOut,
      loggingOut: false,
    },
    effects,
  }
}

/** A forced sign-out (the catalogue's rows): end, toast the reason once, go to /login. */
function signOut(state: SessionState, message: string): Transition {
  const ended = end(state, true)
  ended.effects.push({ type: 'notify', kind: 'error', message }, { type: 'navigate', to: PATHS.login })
  return ended
}

/**
 * Starts a refresh, or joins the one in flight. Without a refresh token nothing is sent.
 * A refused call (`needed`) then ends the session like a failed refresh.
 */
function requestRefresh(
  state: SessionState,
  stored: Stored,
  call: number | null,
  needed = false,
): Transition {
  const calls = call === null ? [] : [call]
  if (state.refresh) {
    return {
      state: { ...state, refresh: { ...state.refresh, waiters: [...state.refresh.waiters, ...calls] } },
      effects: [],
    }
  }
  if (stored.refreshToken === null) {
    const log: SessionEffect[] = [{ type: 'log', message: NO_REFRESH_TOKEN }, ...resume(calls, null)]
    if (!needed) return { state, effects: log }
    const out = signOut(state, REFRESH_FAILED_MESSAGE)
    return { state: out.state, effects: [...log, ...out.effects] }
  }
  const flight: Flight = { id: state.nextFlight, refreshToken: stored.refreshToken, waiters: calls }
  return {
    state: { ...state, refresh: flight, nextFlight: state.nextFlight + 1 },
    effects: [{ type: 'acquireLock', flight: flight.id }],
  }
}

/** The refresh in flight is done with `tokens` (new, or another tab's): waiters retry with the access token. */
function refreshDone(state: SessionState, now: number, tokens: TokenPair, announce: boolean): Transition {
  const flight = state.refresh as Flight
  const effects: SessionEffect[] = [
    { type: 'storeTokens', tokens },
    ...resume(flight.waiters, tokens.accessToken),
  ]
  if (!state.timerRunning) effects.push(startTimer)
  // Announced under the lock, so the next tab to take it sees the rotation.
  if (announce) effects.push({ type: 'announceRotation', retiredRefreshToken: flight.refreshToken, tokens })
  effects.push({ type: 'releaseLock', flight: flight.id })
  return {
    state: { ...state, refresh: null, hasTokens: true, timerRunning: true, lastRefreshAt: now },
    effects,
  }
}

function refreshFailed(state: SessionState): Transition {
  const flight = state.refresh as Flight
  const out = signOut(state, REFRESH_FAILED_MESSAGE)
  return { state: out.state, effects: [{ type: 'releaseLock', flight: flight.id }, ...out.effects] }
}

function handleLockGranted(state: SessionState, flight: number, stored: Stored, now: number): Transition {
  // The session the refresh was for has ended: let go of the lock, send nothing.
  if (state.refresh?.id !== flight) return { state, effects: [{ type: 'releaseLock', flight }] }
  if (!hasPair(stored)) return refreshFailed(state)
  // Another tab rotated this token meanwhile. Take its pair; the old token is retired.
  if (stored.refreshToken !== state.refresh.refreshToken) {
    const tokens = { accessToken: stored.accessToken as string, refreshToken: stored.refreshToken as string }
    return refreshDone(state, now, tokens, false)
  }
  return { state, effects: [{ type: 'sendRefresh', flight, refreshToken: state.refresh.refreshToken }] }
}

function handleUnauthorized(
  state: SessionState,
  event: Extract<SessionEvent, { type: 'UNAUTHORIZED' }>,
): Transition {
  const giveUp = resume([event.call], null)
  // A 401 of a call sent in an ended session: the ending has been dealt with, once.
  if (event.sent.generation !== state.generation) return { state, effects: giveUp }
  const code = event.body?.error
  if (code !== undefined && code !== 'token_expired') {
    const out = signOut(state, getSignOutMessage(event.body))
    return { state: out.state, effects: [...giveUp, ...out.effects] }
  }
  if (state.refresh) return requestRefresh(state, event.stored, event.call) // joins the flight
  // The tokens rotated after the call left: retry with the current token, without another refresh.
  const current = event.stored.accessToken
  if (current !== null && current !== event.sent.token) {
    return { state, effects: resume([event.call], current) }
  }
  return requestRefresh(state, event.stored, event.call, true)
}

function handleSignedIn(
  state: SessionState,
  event: Extract<SessionEvent, { type: 'SIGNED_IN' }>,
): Transition {
  if (event.generation !== state.generation) return same(state)
  // A sign-in begins a new session: whatever the previous one still has in flight is dropped when it answers.
  const effects: SessionEffect[] = [
    ...resume(state.refresh?.waiters ?? [], null),
    { type: 'storeTokens', tokens: event.tokens },
    startTimer,
    { type: 'navigate', to: event.redirect, replace: true },
  ]
  return {
    state: {
      ...state,
      generation: state.generation + 1,
      ready: true,
      user: event.user,
      hasTokens: true,
      refresh: null,
      timerRunning: true,
      lastRefreshAt: null,
      signedOut: false,
      loggingOut: false,
    },
    effects,
  }
}

function handlePasswordUpdated(state: SessionState, generation: number, via: PasswordUpdate): Transition {
  if (generation !== state.generation) return same(state)
  if (via === 'signed-in') {
    return {
      state,
      effects: [
        { type: 'notify', kind: 'success', message: PASSWORD_CHANGED_MESSAGE },
        { type: 'navigate', to: PATHS.home },
      ],
    }
  }
  // A reset ends every session of the account on the server, this tab's included.
  const out = hasSession(state) ? end(state, false) : same({ ...state, ready: true })
  out.effects.push(
    { type: 'notify', kind: 'success', message: PASSWORD_RESET_MESSAGE },
    { type: 'navigate', to: PATHS.login },
  )
  return out
}

function handleRotationHeard(
  state: SessionState,
  event: Extract<SessionEvent, { type: 'ROTATION_HEARD' }>,
  now: number,
): Transition {
  const { stored, held, retired, tokens } = event
  // Only a rotation of the token this session still holds counts. Other sessions and ended ones never match.
  if (state.loggingOut) return same(state)
  if (stored.refreshToken !== held.token || held.digest !== retired) return same(state)
  if (tokens.refreshToken === stored.refreshToken) return same(state)
  return {
    state: { ...state, hasTokens: true, timerRunning: true, lastRefreshAt: now },
    effects: [{ type: 'storeTokens', tokens }, ...(state.timerRunning ? [] : [startTimer])],
  }
}

function handleLogoutRequested(state: SessionState, stored: Stored): Transition {
  if (state.loggingOut) return same(state) // one log-out at a time (StrictMode runs the page's effect twice)
  // The session ends now, so nothing in flight can bring it back. Stored tokens go once the server has ended
  // its side (docs/session-life-cycle.md: server first).
  const effects: SessionEffect[] = [
    ...resume(state.refresh?.waiters ?? [], null),
    ...(state.timerRunning ? [{ type: 'stopTimer' } as const] : []),
    { type: 'announceLogout' },
    { type: 'deleteSession', generation: state.generation + 1, accessToken: stored.accessToken },
  ]
  return {
    state: {
      ...state,
      generation: state.generation + 1,
      ready: true,
      user: null,
      hasTokens: false,
      refresh: null,
      timerRunning: false,
      signedOut: true,
      loggingOut: true,
    },
    effects,
  }
}

/**
 * One step of the session life cycle.
 * @example
 * const { state, effects } = transition(initialSessionState, { type: 'STARTED', stored: { accessToken: null, refreshToken: null } }, 0)
 * // effects: [{ type: 'fetchSession', generation: 0 }]
 */
export function transition(state: SessionState, event: SessionEvent, now: number): Transition {
  switch (event.type) {
    case 'STARTED': {
      const fetchSession: SessionEffect = { type: 'fetchSession', generation: state.generation }
      if (!hasPair(event.stored)) {
        return { state: state.hasTokens ? { ...state, hasTokens: false } : state, effects: [fetchSession] }
      }
      // Once at start-up when tokens exist, then every 300 s.
      const refresh = requestRefresh({ ...state, hasTokens: true, timerRunning: true }, event.stored, null)
      return { state: refresh.state, effects: [fetchSession, startTimer, ...refresh.effects] }
    }
    case 'SESSION_LOADED':
      if (event.generation !== state.generation) return same(state)
      // Signed out per the server: end what this tab held. No toast; it is not an error.
      if (event.user === null && hasSession(state)) return end(state, false)
      return same({ ...state, ready: true, user: event.user })
    case 'SIGNED_IN':
      return handleSignedIn(state, event)
    case 'PASSWORD_UPDATED':
      return handlePasswordUpdated(state, event.generation, event.via)
    case 'TIMER_TICKED':
      if (!hasPair(event.stored)) {
        return { state: { ...state, timerRunning: false }, effects: [{ type: 'stopTimer' }] }
      }
      return requestRefresh(state, event.stored, null)
    case 'REFRESH_REQUESTED':
      return requestRefresh(state, event.stored, event.call)
    case 'LOCK_GRANTED':
      return handleLockGranted(state, event.flight, event.stored, now)
    case 'REFRESH_ANSWERED':
      // A late answer of an ended session: dropped whole, only its lock is let go.
      if (state.refresh?.id !== event.flight)
        return { state, effects: [{ type: 'releaseLock', flight: event.flight }] }
      return event.tokens ? refreshDone(state, now, event.tokens, true) : refreshFailed(state)
    case 'UNAUTHORIZED':
      return handleUnauthorized(state, event)
    case 'RETRY_ANSWERED':
      // A second 401 on the retried call ends the session; a late one of an ended session does nothing more.
      if (event.generation !== state.generation || event.status !== 401) return same(state)
      return signOut(state, getSignOutMessage(event.body))
    case 'ROTATION_HEARD':
      return handleRotationHeard(state, event, now)
    case 'LOGGED_OUT_ELSEWHERE':
      // The cookie session is the browser's: a log-out in any tab ends this tab's session too, quietly.
      return hasSession(state) ? end(state, true) : same(state)
    case 'LOGOUT_REQUESTED':
      return handleLogoutRequested(state, event.stored)
    case 'LOGOUT_ANSWERED':
      // A sign-in that landed meanwhile began a newer session: it is not cleared.
      if (event.generation !== state.generation) return same(state)
      return {
        state: { ...state, loggingOut: false },
        effects: [{ type: 'clearTokens' }, { type: 'navigate', to: PATHS.login }],
      }
  }
}
