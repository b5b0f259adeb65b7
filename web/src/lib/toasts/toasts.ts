// The toasts (docs/behaviour.md: Messages, Constants; ADR 006): react-hot-toast. Two readings of docs/behaviour.md: Constants, chosen by the runtime configuration
// (`toasts`): the first (default) is top-center, 6000 ms for every kind, pause on hover or touch, promise toasts
// without time-out; the second is top-right, at most 4 shown, the rest queued, 5000 ms each (see toaster.tsx).
// react-hot-toast has no warning or info kind: they are built over `toast()` with an icon. Durations are not set
// per toast: the toaster of the chosen reading gives them, so one call serves both readings.
import { createElement } from 'react'
import { toast, type DefaultToastOptions, type Toast, type ToastPosition } from 'react-hot-toast'
import { TOAST_DURATION_MS } from '../../session/constants.ts'
import { QUEUED_TOAST_DURATION_MS } from '../config/constants.ts'

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

function withAction(message: string, action: NonNullable<ToastRequest['action']>) {
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
 * Shows one toast; returns its id.
 * @example
 * showToast({ kind: 'error', message: 'Session expired. Please login again.' })
 * showToast({ kind: 'info', message: 'A new version is available.', action: { label: 'Reload', onAction: reload } })
 */
export function showToast({ kind, message, id, action, persistent }: ToastRequest): string {
  const options = {
    ...(id !== undefined && { id }),
    ...(persistent && { duration: Infinity }),
  }
  const content = action ? withAction(message, action) : message
  switch (kind) {
    case 'success':
      return toast.success(content, options)
    case 'error':
      return toast.error(content, { ...options, ariaProps: { role: 'alert', 'aria-live': 'assertive' } })
    case 'warning':
    case 'info':
      return toast(content, { ...options, icon: ICONS[kind] })
  }
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
  return toast.promise(promise, messages)
}
