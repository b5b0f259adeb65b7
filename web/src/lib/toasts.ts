// The toasts (spec 8, 9 first reading; DESIGN.md): react-hot-toast, top-center, 6000 ms for every kind, pause on
// hover or touch, promise toasts without time-out. react-hot-toast has no warning or info kind: they are built
// over `toast()` with an icon. Alternative reading kept on record: top-right, at most 4 shown, queued, 5000 ms.
import { toast, type DefaultToastOptions, type ToastPosition } from 'react-hot-toast'
import { TOAST_DURATION_MS } from '../session/constants.ts'

export type ToastKind = 'success' | 'error' | 'warning' | 'info'

export const TOAST_POSITION: ToastPosition = 'top-center'

/** The Toaster's options: every kind lasts 6000 ms; a pending promise toast stays until it settles. */
export const TOAST_OPTIONS: DefaultToastOptions = {
  duration: TOAST_DURATION_MS,
  success: { duration: TOAST_DURATION_MS },
  error: { duration: TOAST_DURATION_MS },
  blank: { duration: TOAST_DURATION_MS },
  loading: { duration: Infinity },
}

const ICONS = { warning: '⚠️', info: 'ℹ️' } as const

/**
 * Shows one toast; returns its id.
 * @example
 * showToast({ kind: 'error', message: 'Session expired. Please login again.' })
 */
export function showToast({ kind, message }: { kind: ToastKind; message: string }): string {
  const options = { duration: TOAST_DURATION_MS }
  switch (kind) {
    case 'success':
      return toast.success(message, options)
    case 'error':
      return toast.error(message, { ...options, ariaProps: { role: 'alert', 'aria-live': 'assertive' } })
    case 'warning':
    case 'info':
      return toast(message, { ...options, icon: ICONS[kind] })
  }
}

/**
 * A toast that follows a promise: the loading toast has no time-out; its outcome lasts 6000 ms.
 * @example
 * await showPromiseToast(save(), { loading: 'Saving…', success: 'Saved', error: 'Could not save' })
 */
export function showPromiseToast<T>(
  promise: Promise<T>,
  messages: { loading: string; success: string; error: string },
): Promise<T> {
  return toast.promise(promise, messages, {
    loading: { duration: Infinity },
    success: { duration: TOAST_DURATION_MS },
    error: { duration: TOAST_DURATION_MS },
  })
}
