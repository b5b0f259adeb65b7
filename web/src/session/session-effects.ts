// The session store's hands: runs each effect of the session machine with what the host injects.
// Every answer goes back through `report` as an event. session-machine.ts decides what happens next.
import { REFRESH_LOCK_NAME } from './constants.ts'
import { createLockKeeper, createTabChannel, type ChannelLike, type LockManagerLike } from './cross-tab.ts'
import type { SessionEffect, SessionEvent, Stored } from './session-machine.ts'
import { createSessionCalls } from './session-calls.ts'
import { createTokenStorage } from './token-storage.ts'

export type ToastKind = 'success' | 'error' | 'warning' | 'info'

export interface SessionStoreDeps {
  fetch: (input: Request) => Promise<Response>
  baseUrl: string
  storage: Storage
  clock: { now(): number }
  timers: { setInterval(fn: () => void, ms: number): unknown; clearInterval(id: unknown): void }
  navigate: (to: string, options?: { replace?: boolean }) => void
  notify: (toast: { kind: ToastKind; message: string }) => void
  log: (message: string) => void
  hash: (text: string) => Promise<string>
  locks?: LockManagerLike | null
  channel?: ChannelLike | null
}

/**
 * @example
 * const effects = createSessionEffects(deps, dispatch)
 * effects.run({ type: 'fetchSession', generation: 0 }) // later: dispatch({ type: 'SESSION_LOADED', ... })
 */
export function createSessionEffects(deps: SessionStoreDeps, report: (event: SessionEvent) => void) {
  const tokens = createTokenStorage(deps.storage)
  const calls = createSessionCalls({ fetch: deps.fetch, baseUrl: deps.baseUrl })
  const lock = createLockKeeper(deps.locks, REFRESH_LOCK_NAME)
  const waiting = new Map<number, (accessToken: string | null) => void>()
  let nextCall = 1
  let timerId: unknown = null
  const stored = (): Stored => ({
    accessToken: tokens.getAccessToken(),
    refreshToken: tokens.getRefreshToken(),
  })
  const tabs = createTabChannel({
    ...deps,
    getRefreshToken: tokens.getRefreshToken,
    onRotation: (heard) => report({ type: 'ROTATION_HEARD', ...heard, stored: stored() }),
    onLogout: () => report({ type: 'LOGGED_OUT_ELSEWHERE' }),
  })
  /** Starts a call whose answer comes back as an event (a failed call answers null). */
  const ask = <T>(call: Promise<T>, answer: (value: T | null) => SessionEvent) =>
    void call.then(
      (value) => report(answer(value)),
      () => report(answer(null)),
    )
  const stopTimer = () => {
    deps.timers.clearInterval(timerId) // clearInterval(null) does nothing
    timerId = null
  }

  function run(effect: SessionEffect): Promise<void> | undefined {
    switch (effect.type) {
      case 'fetchSession':
        return ask(calls.getSessionUser(), (user) => ({
          type: 'SESSION_LOADED',
          generation: effect.generation,
          user,
        }))
      case 'acquireLock':
        return void lock.acquire(effect.flight, () =>
          report({ type: 'LOCK_GRANTED', flight: effect.flight, stored: stored() }),
        )
      case 'sendRefresh':
        return ask(calls.refresh(effect.refreshToken), (pair) => ({
          type: 'REFRESH_ANSWERED',
          flight: effect.flight,
          tokens: pair,
        }))
      case 'releaseLock':
        return void lock.release(effect.flight)
      case 'resume':
        return void effect.calls.forEach(
          (call) => (waiting.get(call)?.(effect.accessToken), waiting.delete(call)),
        )
      case 'storeTokens':
        return void tokens.setTokens(effect.tokens)
      case 'clearTokens':
        return void tokens.clear()
      case 'announceRotation':
        return tabs.announceRotation(effect.retiredRefreshToken, effect.tokens)
      case 'announceLogout':
        return void tabs.announceLogout()
      case 'startTimer':
        stopTimer()
        timerId = deps.timers.setInterval(
          () => report({ type: 'TIMER_TICKED', stored: stored() }),
          effect.intervalMs,
        )
        return
      case 'stopTimer':
        return void stopTimer()
      case 'deleteSession':
        return ask(calls.deleteSession(effect.accessToken), () => ({
          type: 'LOGOUT_ANSWERED',
          generation: effect.generation,
        }))
      case 'log':
        return void deps.log(effect.message)
      case 'notify':
        return void deps.notify({ kind: effect.kind, message: effect.message })
      case 'navigate':
        return void deps.navigate(effect.to, effect.replace ? { replace: true } : undefined)
      default:
        throw new Error(`Failed to run a session effect: ${JSON.stringify(effect)} is not one.`)
    }
  }

  return {
    run,
    stored,
    getAccessToken: tokens.getAccessToken,
    /** Reports the event `ask(call)` names; resolves with the machine's `resume` for that call (a token or null). */
    wait(ask: (call: number) => SessionEvent): Promise<string | null> {
      const call = nextCall++
      const answer = new Promise<string | null>((resolve) => waiting.set(call, resolve))
      report(ask(call))
      return answer
    },
    /** Stops the timer and the other tabs' messages, lets go of the lock; waiting calls give up. */
    dispose() {
      stopTimer()
      tabs.dispose()
      lock.releaseAll()
      waiting.forEach((resume) => resume(null))
    },
  }
}
