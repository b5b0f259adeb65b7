// The toasts (docs/behaviour.md: Messages, Constants; ADR 006), one object per page made by main.tsx.
//
// react-hot-toast and the toast area (toaster.tsx) are a chunk fetched after the first paint. That keeps about
// 4.7 kB gzip off /login (docs/decisions/012-first-load.md). Toasts raised earlier wait here and show, in order,
// when it connects, unless they went stale.
import type { ComponentType } from 'react'
import { TOAST_DURATION_MS } from '../config/constants.ts'
import { raiseToast, type ToastApi, type ToastRequest } from './toast-raise.ts'

export type { ToastKind, ToastRequest } from './toast-raise.ts'

/** What the toast area's chunk gives: react-hot-toast's `toast`, and the area to render. */
export interface ToasterChunk {
  toast: ToastApi
  Toaster: ComponentType
}

/**
 * Back-off delays for fetching the chunk again while a fresh toast waits.
 * A flaky network may never fire `online`, and "Session expired" must still be seen.
 */
export const TOAST_AREA_RETRY_MS = [500, 1000, 2000, 4000] as const

export interface Toasts {
  /** Shows one toast (once the toast area is in); returns its id. */
  show(request: ToastRequest): string
  /** A toast that follows a promise: the loading toast has no time-out; its outcome lasts as long as any toast. */
  showPromise<T>(
    promise: Promise<T>,
    messages: { loading: string; success: string; error: string },
  ): Promise<T>
  /**
   * Fetches the toast area's chunk, unless it is in or on its way.
   * After a failure it retries with back-off while a toast waits, else at the next call.
   */
  load(): void
  /** The toast area's component once its chunk is in, else null (for useSyncExternalStore). */
  subscribe(listener: () => void): () => void
  getSnapshot(): ComponentType | null
}

export interface ToastsOptions {
  /** A toast area already in (a test that renders the toaster itself); none by default. */
  area?: ToasterChunk
  /** The toast area's chunk (toaster.tsx by default). */
  loadArea?: () => Promise<ToasterChunk>
  /** A clock the user's clock changes do not move (performance.now() by default). */
  now?: () => number
  setTimeout?: (fn: () => void, ms: number) => unknown
  clearTimeout?: (id: unknown) => void
}

/**
 * A toast waiting for the area, with the time it goes stale (TOAST_DURATION_MS).
 * A stale toast is dropped, so "Session expired" raised offline does not greet the next sign-in.
 */
interface WaitingToast {
  raise: (toast: ToastApi) => void
  staleFrom: () => number
}

/** The toast area's chunk, toaster.tsx (an async function, not `import(...).then(...)`: eslint.config.js says why). */
export async function loadToaster(): Promise<ToasterChunk> {
  const { toast, AppToaster } = await import('./toaster.tsx')
  return { toast, Toaster: AppToaster }
}

/**
 * @example
 * const toasts = createToasts()
 * toasts.show({ kind: 'error', message: 'Session expired. Please login again.' })
 * toasts.show({ kind: 'info', message: 'A new version is available.', action: { label: 'Reload', onAction: reload } })
 */
export function createToasts({
  area: given,
  loadArea = loadToaster,
  now = () => performance.now(),
  setTimeout = (fn, ms) => globalThis.setTimeout(fn, ms),
  clearTimeout = (id) => globalThis.clearTimeout(id as ReturnType<typeof globalThis.setTimeout>),
}: ToastsOptions = {}): Toasts {
  let area: ToasterChunk | null = given ?? null
  let loading = false
  let retries = 0
  let retryTimer: unknown
  let sequence = 0
  const waiting: WaitingToast[] = []
  const listeners = new Set<() => void>()

  const connect = (chunk: ToasterChunk) => {
    area = chunk
    const at = now()
    for (const { raise, staleFrom } of waiting.splice(0)) if (at < staleFrom()) raise(chunk.toast)
    listeners.forEach((listener) => listener())
  }
  const attempt = () => {
    if (area || loading) return
    loading = true
    void (async () => {
      try {
        const chunk = await loadArea()
        connect(chunk)
        loading = false
      } catch {
        loading = false
        retry()
      }
    })()
  }
  const retry = () => {
    const delay = TOAST_AREA_RETRY_MS[retries]
    if (delay === undefined) return
    const firesAt = now() + delay
    if (!waiting.some(({ staleFrom }) => firesAt < staleFrom())) return
    retries += 1
    retryTimer = setTimeout(attempt, delay)
  }
  const load = () => {
    retries = 0
    clearTimeout(retryTimer)
    attempt()
  }
  const withToast = (raise: (toast: ToastApi) => void, staleFrom: () => number) => {
    if (area) return raise(area.toast)
    waiting.push({ raise, staleFrom })
    load()
  }

  return {
    show(request) {
      // An id of our own, known before react-hot-toast is in (its own are digits, so the two never meet).
      const id = request.id ?? `toast-${(sequence += 1)}`
      const staleFrom = request.persistent ? Infinity : now() + TOAST_DURATION_MS
      withToast(
        (toast) => raiseToast(toast, request, id),
        () => staleFrom,
      )
      return id
    },
    showPromise(promise, messages) {
      // Its loading toast stays while the promise is pending; its outcome lasts as long as any toast.
      let settledAt = Infinity
      const settle = () => void (settledAt = now())
      promise.then(settle, settle)
      withToast(
        (toast) => void toast.promise(promise, messages),
        () => settledAt + TOAST_DURATION_MS,
      )
      return promise
    },
    load,
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    getSnapshot: () => area?.Toaster ?? null,
  }
}
