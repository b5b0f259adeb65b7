// The toasts (docs/behaviour.md: Messages, Constants; ADR 006): react-hot-toast. Two readings of docs/behaviour.md: Constants, chosen by the runtime configuration
// (`toasts`): the first (default) is top-center, 6000 ms for every kind, pause on hover or touch, promise toasts
// without time-out; the second is top-right, at most 4 shown, the rest queued, 5000 ms each (see toaster.tsx).
// react-hot-toast has no warning or info kind: they are built over `toast()` with an icon. Durations are not set
// per toast: the toaster of the chosen reading gives them, so one call serves both readings.
//
// react-hot-toast, its styles and the toast area (toaster.tsx) are a chunk of their own, fetched in the background
// right after the first paint (toast-area.tsx), so the first load of /login carries none of them
// (docs/decisions/012-first-load.md). A toast raised before the chunk is in waits here and is raised, in order, when
// toaster.tsx connects itself, unless it waited longer than a toast lasts (WaitingToast); a chunk that fails to load
// is asked for again after a short back-off while a toast waits, and at the next toast (a background fetch: no page
// reload, lib/navigation/chunk-reload.ts).
import { createElement, type ComponentType } from 'react'
import type { DefaultToastOptions, Toast, ToastPosition } from 'react-hot-toast'
import { QUEUED_TOAST_DURATION_MS, TOAST_DURATION_MS } from '../config/constants.ts'

export type ToastKind = 'success' | 'error' | 'warning' | 'info'

export const TOAST_POSITION: ToastPosition = 'top-center'
export const QUEUED_TOAST_POSITION: ToastPosition = 'top-right'

/** The first reading's options: every kind lasts 6000 ms; a pending promise toast stays until it settles. */
export const TOAST_OPTIONS: DefaultToastOptions = {
  duration: TOAST_DURATION_MS,
  success: { duration: TOAST_DURATION_MS },
  error: { duration: TOAST_DURATION_MS },
  blank: { duration: TOAST_DURATION_MS },
  loading: { duration: Infinity },
}

/**
 * The second reading's durations, applied by the queued toaster from the moment a toast is shown (a queued toast
 * must not time out while it waits), so react-hot-toast's own timers are switched off there (QUEUED_TOAST_OPTIONS).
 */
export const QUEUED_TOAST_TIMING: DefaultToastOptions = {
  duration: QUEUED_TOAST_DURATION_MS,
  success: { duration: QUEUED_TOAST_DURATION_MS },
  error: { duration: QUEUED_TOAST_DURATION_MS },
  blank: { duration: QUEUED_TOAST_DURATION_MS },
  custom: { duration: QUEUED_TOAST_DURATION_MS },
  loading: { duration: Infinity },
}

export const QUEUED_TOAST_OPTIONS: DefaultToastOptions = {
  duration: Infinity,
  success: { duration: Infinity },
  error: { duration: Infinity },
  blank: { duration: Infinity },
  loading: { duration: Infinity },
}

/** react-hot-toast's `toast`, which only toaster.tsx imports. */
export type ToastApi = typeof import('react-hot-toast').toast

let area: { toast: ToastApi; Toaster: ComponentType } | null = null
let loading = false

/**
 * A toast waiting for the area, and from when its time runs out (performance.now(), a clock the user's clock changes
 * do not move): it is dropped when it connects later than that. A toast the visitor could not see for as long as a
 * toast lasts (TOAST_DURATION_MS) is stale: "Session expired" raised offline must not greet the next sign-in.
 */
interface WaitingToast {
  raise: (toast: ToastApi) => void
  staleFrom: () => number
}
const waiting: WaitingToast[] = []
const areaListeners = new Set<() => void>()

/**
 * After a failed load, while a toast waits that would still be fresh when the timer fires, the chunk is asked for
 * again after each of these delays in turn: a network that failed once is not left to the next toast, or to an
 * `online` event a flaky connection never fires, while "Session expired" waits to be seen.
 */
export const TOAST_AREA_RETRY_MS = [500, 1000, 2000, 4000] as const
let retries = 0
let retryTimer: ReturnType<typeof setTimeout> | undefined

/**
 * Fetches the toast area's chunk, unless it is in or on its way. A failure is tried again after a back-off while a
 * toast waits (TOAST_AREA_RETRY_MS), and otherwise left to the next call: the next toast, the layout mounting, or the
 * browser's next 'online' (toast-area.tsx). Each such call starts the back-off afresh.
 */
export function loadToastArea(): void {
  retries = 0
  clearTimeout(retryTimer)
  attemptToastArea()
}

function attemptToastArea(): void {
  if (area || loading) return
  loading = true
  void (async () => {
    try {
      await import('./toaster.tsx') // connects itself (connectToastArea)
      loading = false
    } catch {
      loading = false
      retryToastArea()
    }
  })()
}

function retryToastArea(): void {
  const delay = TOAST_AREA_RETRY_MS[retries]
  if (delay === undefined) return
  const firesAt = performance.now() + delay
  if (!waiting.some(({ staleFrom }) => firesAt < staleFrom())) return
  retries += 1
  retryTimer = setTimeout(attemptToastArea, delay)
}

/** Called once by toaster.tsx as it is evaluated: raises the toasts that waited, in order, then renders the area. */
export function connectToastArea(toast: ToastApi, Toaster: ComponentType): void {
  area = { toast, Toaster }
  const now = performance.now()
  for (const { raise, staleFrom } of waiting.splice(0)) if (now < staleFrom()) raise(toast)
  areaListeners.forEach((listener) => listener())
}

/** The toast area's component once its chunk is in, else null (for useSyncExternalStore). */
export const toastArea = {
  subscribe(listener: () => void) {
    areaListeners.add(listener)
    return () => void areaListeners.delete(listener)
  },
  getSnapshot: () => area?.Toaster ?? null,
}

function withToast(raise: (toast: ToastApi) => void, staleFrom: () => number): void {
  if (area) return raise(area.toast)
  waiting.push({ raise, staleFrom })
  loadToastArea()
}

let sequence = 0

const ICONS = { warning: '⚠️', info: 'ℹ️' } as const

export interface ToastRequest {
  kind: ToastKind
  message: string
  /** A toast with the id of one on screen replaces it instead of adding another. */
  id?: string
  /** A button in the toast; pressing it dismisses the toast, then runs `onAction`. */
  action?: { label: string; onAction: () => void }
  /** Stays until dismissed (or its action is taken). */
  persistent?: boolean
}

function withAction(toast: ToastApi, message: string, action: NonNullable<ToastRequest['action']>) {
  return (shown: Toast) =>
    createElement(
      'span',
      { className: 'toast-with-action' },
      message,
      ' ',
      createElement(
        'button',
        {
          type: 'button',
          onClick: () => {
            toast.dismiss(shown.id)
            action.onAction()
          },
        },
        action.label,
      ),
    )
}

/**
 * Shows one toast (once the toast area is in); returns its id.
 * @example
 * showToast({ kind: 'error', message: 'Session expired. Please login again.' })
 * showToast({ kind: 'info', message: 'A new version is available.', action: { label: 'Reload', onAction: reload } })
 */
export function showToast({ kind, message, id, action, persistent }: ToastRequest): string {
  // An id of our own, known before react-hot-toast is in (its own are digits, so the two never meet).
  const options = {
    id: id ?? `toast-${(sequence += 1)}`,
    ...(persistent && { duration: Infinity }),
  }
  const staleFrom = persistent ? Infinity : performance.now() + TOAST_DURATION_MS
  withToast(
    (toast) => {
      const content = action ? withAction(toast, message, action) : message
      switch (kind) {
        case 'success':
          return void toast.success(content, options)
        case 'error':
          return void toast.error(content, {
            ...options,
            ariaProps: { role: 'alert', 'aria-live': 'assertive' },
          })
        case 'warning':
        case 'info':
          return void toast(content, { ...options, icon: ICONS[kind] })
      }
    },
    () => staleFrom,
  )
  return options.id
}

/**
 * A toast that follows a promise: the loading toast has no time-out; its outcome lasts as long as any toast.
 * @example
 * await showPromiseToast(save(), { loading: 'Saving…', success: 'Saved', error: 'Could not save' })
 */
export function showPromiseToast<T>(
  promise: Promise<T>,
  messages: { loading: string; success: string; error: string },
): Promise<T> {
  // Its loading toast stays while the promise is pending; its outcome lasts as long as any toast.
  let settledAt = Infinity
  const settle = () => void (settledAt = performance.now())
  promise.then(settle, settle)
  withToast(
    (toast) => void toast.promise(promise, messages),
    () => settledAt + TOAST_DURATION_MS,
  )
  return promise
}
