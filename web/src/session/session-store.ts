// Runs the session machine's effects: token storage, the refresh timer, the session/refresh/logout calls, the
// cross-tab lock and announcements, and requests to navigate, toast and log. Everything it touches is injected.
import type { ErrorBody } from '../api/error-messages.ts'
import { REFRESH_LOCK_NAME } from './constants.ts'
import { createRotationSync, withLock, type ChannelLike, type LockManagerLike } from './cross-tab.ts'
import {
  initialSessionState,
  REFRESH_FAILED,
  transition,
  type RefreshReason,
  type SessionEffect,
  type SessionEvent,
  type SessionState,
} from './session-machine.ts'
import { createSessionCalls } from './session-calls.ts'
import { createTokenStorage, type TokenPair } from './token-storage.ts'
import { normalizeUser, type AnyUser } from './user.ts'

export type ToastKind = 'success' | 'error' | 'warning' | 'info'

export interface SessionStoreDeps {
  fetch: (input: Request) => Promise<Response>
  baseUrl: string
  storage: Storage
  clock: { now(): number }
  timers: { setInterval(fn: () => void, ms: number): unknown; clearInterval(id: unknown): void }
  navigate: (to: string) => void
  notify: (toast: { kind: ToastKind; message: string }) => void
  log: (message: string) => void
  hash: (text: string) => Promise<string>
  locks?: LockManagerLike | null
  channel?: ChannelLike | null
}

export interface SessionSnapshot extends SessionState {
  isLoggedIn: boolean
}

/** What a sign-in answer carries (openapi `SignedInBody`). */
export interface SignedInBody {
  user: AnyUser
  token: string
  refresh_token: string
  service_token?: string
}

interface Flight {
  promise: Promise<string>
  resolve: (token: string) => void
  reject: (error: Error) => void
}

function createFlight(): Flight {
  let resolve!: (token: string) => void
  let reject!: (error: Error) => void
  const promise = new Promise<string>((res, rej) => ((resolve = res), (reject = rej)))
  promise.catch(() => {}) // a periodic refresh has no caller; its failure is handled by the effects
  return { promise, resolve, reject }
}

/**
 * The session store: the machine's state plus the effects it asks for.
 * @example
 * const store = createSessionStore({ fetch, baseUrl: '', storage: sessionStorage, clock: Date, ... })
 * store.start()
 * const token = await store.refresh() // rejects with Error('Token refresh failed') on failure
 */
export function createSessionStore(deps: SessionStoreDeps) {
  const tokens = createTokenStorage(deps.storage)
  const calls = createSessionCalls({ fetch: deps.fetch, baseUrl: deps.baseUrl })
  const listeners = new Set<() => void>()
  let state: SessionState = initialSessionState
  let snapshot: SessionSnapshot = { ...state, isLoggedIn: false }
  let flight: Flight | null = null
  let timerId: unknown = null
  let logout: Promise<void> | null = null
  let disposed = false
  const sync = createRotationSync({
    channel: deps.channel,
    hash: deps.hash,
    getRefreshToken: tokens.getRefreshToken,
    onAdopt: (pair) => dispatch({ type: 'TOKENS_ADOPTED', tokens: pair }),
  })

  function dispatch(event: SessionEvent): Promise<void> {
    if (disposed) return Promise.resolve()
    const next = transition(state, event, deps.clock.now())
    if (next.state !== state) {
      state = next.state
      snapshot = { ...state, isLoggedIn: state.user !== null }
      listeners.forEach((listener) => listener())
    }
    return Promise.all(next.effects.map(run)).then(() => undefined)
  }

  function run(effect: SessionEffect): Promise<void> | void {
    switch (effect.type) {
      case 'fetchSession':
        return fetchSession()
      case 'sendRefresh':
        flight ??= createFlight()
        return performRefresh(effect.refreshToken)
      case 'settleRefresh': {
        const settled = flight
        flight = null
        if (effect.accessToken !== null) settled?.resolve(effect.accessToken)
        else settled?.reject(new Error(effect.error ?? REFRESH_FAILED))
        return
      }
      case 'storeTokens':
        return tokens.setTokens(effect.tokens)
      case 'clearTokens':
        return tokens.clear()
      case 'announceRotation':
        return sync.announce(effect.retiredRefreshToken, effect.tokens)
      case 'startTimer':
        if (timerId !== null) deps.timers.clearInterval(timerId)
        timerId = deps.timers.setInterval(onTick, effect.intervalMs)
        return
      case 'stopTimer':
        if (timerId !== null) deps.timers.clearInterval(timerId)
        timerId = null
        return
      case 'log':
        return deps.log(effect.message)
      case 'notify':
        return deps.notify({ kind: effect.kind, message: effect.message })
      case 'navigate':
        return deps.navigate(effect.to)
      case 'deleteSession':
        return deleteSession()
    }
  }

  function onTick() {
    dispatch({ type: 'TIMER_TICKED', hasTokens: tokens.hasTokens(), refreshToken: tokens.getRefreshToken() })
  }

  async function fetchSession() {
    await dispatch({ type: 'SESSION_LOADED', user: await calls.getSessionUser() })
  }

  function performRefresh(intended: string): Promise<void> {
    return withLock(deps.locks, REFRESH_LOCK_NAME, async () => {
      // Another tab may have rotated this token while we waited for the lock: adopt, do not reuse it.
      const stored = tokens.getTokens()
      if (stored !== null && stored.refreshToken !== intended) {
        const event: SessionEvent = {
          type: 'REFRESH_SUCCEEDED',
          tokens: stored,
          retiredRefreshToken: intended,
          adopted: true,
        }
        return dispatch(event)
      }
      if (stored === null) return dispatch({ type: 'REFRESH_FAILED', message: REFRESH_FAILED })
      let pair: TokenPair
      try {
        pair = await calls.refresh(intended)
      } catch (error) {
        return dispatch({ type: 'REFRESH_FAILED', message: (error as Error).message })
      }
      // Announce while still holding the lock, so a waiting tab finds the rotation when it gets the lock.
      await dispatch({
        type: 'REFRESH_SUCCEEDED',
        tokens: pair,
        retiredRefreshToken: intended,
        adopted: false,
      })
    })
  }

  async function deleteSession() {
    await calls.deleteSession(tokens.getAccessToken())
    await dispatch({ type: 'LOGGED_OUT' })
  }

  /** Starts or joins the single refresh; resolves to the new access token. */
  function refresh(reason: RefreshReason = 'manual'): Promise<string> {
    if (flight) return flight.promise
    const current = (flight = createFlight())
    void dispatch({ type: 'REFRESH_REQUESTED', reason, refreshToken: tokens.getRefreshToken() })
    if (flight === current && !state.refreshing) {
      flight = null
      current.reject(new Error(REFRESH_FAILED))
    }
    return current.promise
  }

  return {
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    getSnapshot: (): SessionSnapshot => snapshot,
    /** Reads the stored tokens, fetches the session, and refreshes once when tokens exist (spec 4). */
    start() {
      void dispatch({
        type: 'STARTED',
        hasTokens: tokens.hasTokens(),
        refreshToken: tokens.getRefreshToken(),
      })
    },
    /**
     * Stops the timer, the cross-tab listener and every effect still to come (tests, hot reload, a page being
     * unloaded: its unloading aborts the calls in flight, and an aborted start-up refresh must not read as a failed
     * one and clear the tokens the next page starts with).
     */
    dispose() {
      disposed = true
      if (timerId !== null) deps.timers.clearInterval(timerId)
      timerId = null
      sync.dispose()
    },
    signIn(body: SignedInBody) {
      const pair = {
        accessToken: body.token,
        refreshToken: body.refresh_token,
        serviceToken: body.service_token,
      }
      void dispatch({ type: 'SIGNED_IN', user: normalizeUser(body.user), tokens: pair })
    },
    refresh,
    getAccessToken: tokens.getAccessToken,
    /**
     * For a 401 on a request sent with `staleToken`: the token to retry with. Joins a running refresh; when the
     * tokens already rotated since that request left, returns the current token without refreshing again.
     */
    refreshAccessToken(staleToken: string): Promise<string> {
      const current = tokens.getAccessToken()
      if (!flight && current !== null && current !== staleToken) return Promise.resolve(current)
      return refresh('unauthorized')
    },
    /** A 401 that ends the session (spec 4, 8): clear tokens, stop the timer, toast by code, go to /login. */
    reportUnauthorized(body: ErrorBody | null) {
      void dispatch({ type: 'UNAUTHORIZED', body })
    },
    /** DELETE /api/_auth/session, then the local session is cleared (spec 4, 7). */
    logout(): Promise<void> {
      logout ??= dispatch({ type: 'LOGOUT_REQUESTED' }).finally(() => (logout = null))
      return logout
    },
  }
}

export type SessionStore = ReturnType<typeof createSessionStore>
