// The session store: holds the machine's state for React and runs its effects in order.
// It decides nothing. Every rule is in session-machine.ts.
import type { components } from '#api/openapi.gen.ts'
import type { ErrorBody } from '../api/error-messages.ts'
import { createSessionEffects, type SessionStoreDeps } from './session-effects.ts'
import { initialSessionState, REFRESH_FAILED, transition, type SessionEffect } from './session-machine.ts'
import type { PasswordUpdate, SessionEvent, SessionState } from './session-machine.ts'
import { normalizeUser } from './user.ts'

export type { SessionStoreDeps, ToastKind } from './session-effects.ts'

export interface SessionSnapshot extends SessionState {
  isLoggedIn: boolean
}

type SignedInBody = Omit<components['schemas']['SignedInBody'], 'service_token'> & { service_token?: string }

/**
 * @example
 * const store = createSessionStore({ fetch, baseUrl: '', storage: sessionStorage, clock: Date, ... })
 * store.start()
 * const generation = store.getGeneration()
 * const { data } = await api.POST('/api/auth/login', { body })
 * if (data) store.signIn(data, { generation, redirect: '/' }) // dropped if the session changed meanwhile
 */
export function createSessionStore(deps: SessionStoreDeps) {
  const listeners = new Set<() => void>()
  const backlog: SessionEffect[] = []
  let state: SessionState = initialSessionState
  let snapshot: SessionSnapshot = { ...state, isLoggedIn: false }
  let busy = false
  let disposed = false
  const effects = createSessionEffects(deps, dispatch)

  function dispatch(event: SessionEvent): void {
    if (disposed) return
    const next = transition(state, event, deps.clock.now())
    if (next.state !== state) {
      state = next.state
      snapshot = { ...state, isLoggedIn: state.user !== null }
      listeners.forEach((listener) => listener())
    }
    backlog.push(...next.effects)
    drain()
  }

  /** Effects run in the order given; one that returns a promise (an announcement) holds back those after it. */
  function drain(): void {
    while (!busy && !disposed && backlog.length > 0) {
      const pending = effects.run(backlog.shift() as SessionEffect)
      if (pending) {
        busy = true
        void pending.finally(() => ((busy = false), drain()))
      }
    }
  }

  return {
    subscribe(listener: () => void) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    getSnapshot: (): SessionSnapshot => snapshot,
    /** The current generation: hand it back with the answer of a call that could change the session. */
    getGeneration: () => state.generation,
    getAccessToken: effects.getAccessToken,
    start: () => dispatch({ type: 'STARTED', stored: effects.stored() }),
    /**
     * Stops every effect still to come. On unload the calls in flight abort, and an aborted start-up refresh
     * must not read as a failed one and clear the tokens the next page needs.
     */
    dispose() {
      disposed = true
      effects.dispose()
    },
    /** A sign-in, code or callback answer asked for in `generation`: signs in, then goes to `redirect`. */
    signIn(body: SignedInBody, asked: { generation: number; redirect: string }) {
      const pair = {
        accessToken: body.token,
        refreshToken: body.refresh_token,
        serviceToken: body.service_token,
      }
      dispatch({ type: 'SIGNED_IN', ...asked, user: normalizeUser(body.user), tokens: pair })
    },
    /** A successful update_password answer asked for in `generation`. */
    passwordUpdated: (generation: number, via: PasswordUpdate) =>
      dispatch({ type: 'PASSWORD_UPDATED', generation, via }),
    /** Starts or joins the single refresh; resolves to the new access token, rejects with 'Token refresh failed'. */
    async refresh(): Promise<string> {
      const token = await effects.wait((call) => ({
        type: 'REFRESH_REQUESTED',
        call,
        stored: effects.stored(),
      }))
      if (token === null) throw new Error(REFRESH_FAILED)
      return token
    },
    /** A 401 of a call sent with `sent.token` in `sent.generation`: the token to retry with, or null (it stands). */
    handleUnauthorized: (sent: { generation: number; token: string }, body: ErrorBody | null) =>
      effects.wait((call) => ({ type: 'UNAUTHORIZED', call, sent, body, stored: effects.stored() })),
    /** The answer of a call retried after a refresh. */
    handleRetried: (generation: number, status: number, body: ErrorBody | null) =>
      dispatch({ type: 'RETRY_ANSWERED', generation, status, body }),
    /** Ends the session on the server, then clears the local one. */
    logout: () => dispatch({ type: 'LOGOUT_REQUESTED', stored: effects.stored() }),
  }
}

export type SessionStore = ReturnType<typeof createSessionStore>
