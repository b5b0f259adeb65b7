// Turns one toast request into a call of react-hot-toast's `toast`.
// It has no warning or info kind, so those are `toast()` with an icon. Durations come from toaster.tsx.
import { createElement } from 'react'
import type { Toast } from 'react-hot-toast'

export type ToastKind = 'success' | 'error' | 'warning' | 'info'

/** react-hot-toast's `toast`, which only the toast area's chunk (toaster.tsx) imports. */
export type ToastApi = typeof import('react-hot-toast').toast

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

const ICONS = { warning: '⚠️', info: 'ℹ️' } as const

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
 * Raises `request` with react-hot-toast under the id `id`.
 * @example
 * raiseToast(toast, { kind: 'info', message: 'Saved', persistent: true }, 'toast-1')
 */
export function raiseToast(
  toast: ToastApi,
  { kind, message, action, persistent }: ToastRequest,
  id: string,
): void {
  const options = { id, ...(persistent && { duration: Infinity }) }
  const content = action ? withAction(toast, message, action) : message
  switch (kind) {
    case 'success':
      return void toast.success(content, options)
    case 'error':
      return void toast.error(content, { ...options, ariaProps: { role: 'alert', 'aria-live': 'assertive' } })
    case 'warning':
    case 'info':
      return void toast(content, { ...options, icon: ICONS[kind] })
  }
}
