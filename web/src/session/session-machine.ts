// The session life cycle as a pure transition (spec 4, 5, 8): (state, event, now) -> { state, effects }.
// Must not import React, fetch, storage, timers or read the clock; the store runs the effects.
import { getSignOutMessage, REFRESH_FAILED_MESSAGE, type ErrorBody } from '../api/error-messages.ts'
import { LOGIN_PATH, REFRESH_INTERVAL_MS } from './constants.ts'
import type { TokenPair } from './token-storage.ts'
import type { User } from './user.ts'

export interface SessionState {
  /** True once the first session fetch has settled (spec 4). */
  ready: boolean
  user: User | null
  /** Whether both tokens are stored, as last reported to the machine. */
  hasTokens: boolean
  refreshing: boolean
  timerRunning: boolean
  lastRefreshAt: number | null
  /** True once this tab's session ended (forced or logout) until the next sign-in: the store is on its way to
   * /login, so the guard sends there too, without a redirect back. */
  signedOut: boolean
}

export type RefreshReason = 'startup' | 'periodic' | 'unauthorized' | 'manual'

export type SessionEvent =
  | { type: 'STARTED'; hasTokens: boolean; refreshToken: string | null }
  | { type: 'SESSION_LOADED'; user: User | null }
  | { type: 'SIGNED_IN'; user: User | null; tokens: TokenPair }
  | { type: 'REFRESH_REQUESTED'; reason: RefreshReason; refreshToken: string | null }
  | { type: 'REFRESH_SUCCEEDED'; tokens: TokenPair; retiredRefreshToken: string; adopted: boolean }
  | { type: 'REFRESH_FAILED'; message: string }
  | { type: 'TIMER_TICKED'; refreshToken: string | null; hasTokens: boolean }
  | { type: 'TOKENS_ADOPTED'; tokens: TokenPair }
  | { type: 'UNAUTHORIZED'; body: ErrorBody | null }
  | { type: 'LOGOUT_REQUESTED' }
  | { type: 'LOGGED_OUT' }

export type SessionEffect =
  | { type: 'fetchSession' }
  | { type: 'sendRefresh'; refreshToken: string }
  | { type: 'settleRefresh'; accessToken: string | null; error: string | null }
  | { type: 'storeTokens'; tokens: TokenPair }
  | { type: 'clearTokens' }
  | { type: 'announceRotation'; retiredRefreshToken: string; tokens: TokenPair }
  | { type: 'startTimer'; intervalMs: number }
  | { type: 'stopTimer' }
  | { type: 'log'; message: string }
  | { type: 'notify'; kind: 'error'; message: string }
  | { type: 'navigate'; to: string }
  | { type: 'deleteSession' }

export interface Transition {
  state: SessionState
  effects: SessionEffect[]
}

export const NO_REFRESH_TOKEN = 'No refresh token available'
export const REFRESH_FAILED = 'Token refresh failed'

export const initialSessionState: SessionState = {
  ready: false,
  user: null,
  hasTokens: false,
  refreshing: false,
  timerRunning: false,
  lastRefreshAt: null,
  signedOut: false,
}

const startTimer = (state: SessionState): SessionEffect[] =>
  state.timerRunning ? [] : [{ type: 'startTimer', intervalMs: REFRESH_INTERVAL_MS }]

/** Clear tokens, stop the timer, toast, go to /login (spec 4, 8). */
function signOut(state: SessionState, message: string | null): Transition {
  const effects: SessionEffect[] = [{ type: 'clearTokens' }]
  if (state.timerRunning) effects.push({ type: 'stopTimer' })
  if (message !== null) effects.push({ type: 'notify', kind: 'error', message })
  effects.push({ type: 'navigate', to: LOGIN_PATH })
  return {
    state: { ...state, user: null, hasTokens: false, timerRunning: false, signedOut: true },
    effects,
  }
}

function requestRefresh(state: SessionState, reason: RefreshReason, refreshToken: string | null): Transition {
  // A caller that meets a running refresh waits for it (single flight); the store holds the promise.
  if (state.refreshing) return { state, effects: [] }
  if (refreshToken === null) {
    const log: SessionEffect[] = [
      { type: 'log', message: NO_REFRESH_TOKEN },
      { type: 'settleRefresh', accessToken: null, error: NO_REFRESH_TOKEN },
    ]
    if (reason !== 'unauthorized') return { state, effects: log }
    const out = signOut(state, REFRESH_FAILED_MESSAGE)
    return { state: out.state, effects: [...log, ...out.effects] }
  }
  return { state: { ...state, refreshing: true }, effects: [{ type: 'sendRefresh', refreshToken }] }
}

/**
 * One step of the session life cycle.
 * @example
 * const started = { type: 'STARTED', hasTokens: false, refreshToken: null } as const
 * const { state, effects } = transition(initialSessionState, started, 0)
 * // effects: [{ type: 'fetchSession' }]
 */
export function transition(state: SessionState, event: SessionEvent, now: number): Transition {
  switch (event.type) {
    case 'STARTED': {
      const next = { ...state, hasTokens: event.hasTokens }
      if (!event.hasTokens) return { state: next, effects: [{ type: 'fetchSession' }] }
      // Once at start-up when tokens exist, then every 300 s (spec 4).
      const refresh = requestRefresh({ ...next, timerRunning: true }, 'startup', event.refreshToken)
      return {
        state: refresh.state,
        effects: [{ type: 'fetchSession' }, ...startTimer(state), ...refresh.effects],
      }
    }
    case 'SESSION_LOADED':
      // A sign-in that lands before the first fetch settles is not undone by an empty answer.
      return { state: { ...state, ready: true, user: event.user ?? state.user }, effects: [] }
    case 'SIGNED_IN':
      return {
        state: {
          ...state,
          ready: true,
          user: event.user,
          hasTokens: true,
          timerRunning: true,
          signedOut: false,
        },
        effects: [{ type: 'storeTokens', tokens: event.tokens }, ...startTimer(state)],
      }
    case 'REFRESH_REQUESTED':
      return requestRefresh(state, event.reason, event.refreshToken)
    case 'TIMER_TICKED':
      if (!event.hasTokens)
        return { state: { ...state, timerRunning: false }, effects: [{ type: 'stopTimer' }] }
      return requestRefresh(state, 'periodic', event.refreshToken)
    case 'REFRESH_SUCCEEDED': {
      const effects: SessionEffect[] = [{ type: 'storeTokens', tokens: event.tokens }]
      if (!event.adopted) {
        effects.push({
          type: 'announceRotation',
          retiredRefreshToken: event.retiredRefreshToken,
          tokens: event.tokens,
        })
      }
      effects.push(...startTimer(state), {
        type: 'settleRefresh',
        accessToken: event.tokens.accessToken,
        error: null,
      })
      return {
        state: { ...state, refreshing: false, hasTokens: true, timerRunning: true, lastRefreshAt: now },
        effects,
      }
    }
    case 'REFRESH_FAILED': {
      const out = signOut({ ...state, refreshing: false }, REFRESH_FAILED_MESSAGE)
      return {
        state: out.state,
        effects: [{ type: 'settleRefresh', accessToken: null, error: event.message }, ...out.effects],
      }
    }
    case 'TOKENS_ADOPTED':
      return {
        state: { ...state, hasTokens: true, timerRunning: true, lastRefreshAt: now },
        effects: [{ type: 'storeTokens', tokens: event.tokens }, ...startTimer(state)],
      }
    case 'UNAUTHORIZED':
      // Many requests can fail together; only the first forced sign-out toasts and navigates.
      if (!state.hasTokens) return { state, effects: [] }
      return signOut(state, getSignOutMessage(event.body))
    case 'LOGOUT_REQUESTED':
      return { state, effects: [{ type: 'deleteSession' }] }
    case 'LOGGED_OUT':
      return signOut(state, null)
  }
}
