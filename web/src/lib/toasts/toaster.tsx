// The toast area, in the reading config.json chose (docs/behaviour.md: Constants). This module is the toast area's
// chunk, loaded by toasts.ts after the first paint.
// - 'top-center' (default): 6000 ms, paused on hover and touch.
// - 'top-right-queue': at most 4 shown, 5000 ms each from when shown. Our clock, not react-hot-toast's.
import { useEffect, useRef } from 'react'
import {
  toast,
  ToastBar,
  Toaster,
  useToaster,
  useToasterStore,
  type DefaultToastOptions,
  type ToastPosition,
} from 'react-hot-toast'
import {
  QUEUED_TOAST_DURATION_MS,
  QUEUED_TOAST_LIMIT,
  TOAST_DURATION_MS,
  TOAST_TOUCH_PAUSE_MS,
} from '../config/constants.ts'
import type { ToastMode } from '../config/runtime-config.ts'
import { useOptionalServices } from '../services/services.ts'
import { getRemainingMs, pickShownToasts, shownKey, type ShownSince } from './toast-queue.ts'

/** toasts.ts raises the toasts through this chunk's `toast`: react-hot-toast is in no other chunk. */
export { toast }

const TOAST_POSITION: ToastPosition = 'top-center'
const QUEUED_TOAST_POSITION: ToastPosition = 'top-right'

/** The first reading's options: every kind lasts 6000 ms; a pending promise toast stays until it settles. */
const TOAST_OPTIONS: DefaultToastOptions = {
  duration: TOAST_DURATION_MS,
  success: { duration: TOAST_DURATION_MS },
  error: { duration: TOAST_DURATION_MS },
  blank: { duration: TOAST_DURATION_MS },
  loading: { duration: Infinity },
}

/**
 * The second reading's durations, counted from when a toast is shown.
 * A queued toast must not time out while it waits, so react-hot-toast's timers are off.
 */
const QUEUED_TOAST_TIMING: DefaultToastOptions = {
  duration: QUEUED_TOAST_DURATION_MS,
  success: { duration: QUEUED_TOAST_DURATION_MS },
  error: { duration: QUEUED_TOAST_DURATION_MS },
  blank: { duration: QUEUED_TOAST_DURATION_MS },
  custom: { duration: QUEUED_TOAST_DURATION_MS },
  loading: { duration: Infinity },
}

const QUEUED_TOAST_OPTIONS: DefaultToastOptions = {
  duration: Infinity,
  success: { duration: Infinity },
  error: { duration: Infinity },
  blank: { duration: Infinity },
  loading: { duration: Infinity },
}

/** Dismisses each shown toast when its time is up; returns the ids on screen. */
function useQueuedToasts(enabled: boolean): Set<string> {
  const { toasts, pausedAt } = useToasterStore(QUEUED_TOAST_TIMING)
  const since = useRef(new Map<string, ShownSince>())
  useEffect(() => {
    if (!enabled) return
    const now = Date.now()
    const live = pickShownToasts(toasts, QUEUED_TOAST_LIMIT).filter((one) => one.visible)
    const keys = new Set(live.map(shownKey))
    for (const key of since.current.keys()) if (!keys.has(key)) since.current.delete(key)
    for (const one of live) {
      if (!since.current.has(shownKey(one)))
        since.current.set(shownKey(one), { at: now, pauseDuration: one.pauseDuration })
    }
    if (pausedAt !== undefined) return
    const timers = live.map((one) => {
      const remaining = getRemainingMs({
        duration: one.duration ?? Infinity,
        since: since.current.get(shownKey(one))!,
        pauseDuration: one.pauseDuration,
        now,
      })
      return remaining === Infinity ? null : setTimeout(() => toast.dismiss(one.id), remaining)
    })
    return () => timers.forEach((timer) => timer !== null && clearTimeout(timer))
  }, [enabled, toasts, pausedAt])
  return new Set(enabled ? pickShownToasts(toasts, QUEUED_TOAST_LIMIT).map((one) => one.id) : [])
}

export function AppToaster({ mode: forced }: { mode?: ToastMode } = {}) {
  const services = useOptionalServices()
  const mode = forced ?? services?.config.toasts ?? 'top-center'
  const queued = mode === 'top-right-queue'
  const options = queued ? QUEUED_TOAST_OPTIONS : TOAST_OPTIONS
  const position = queued ? QUEUED_TOAST_POSITION : TOAST_POSITION
  const { handlers } = useToaster(options)
  const shownIds = useQueuedToasts(queued)
  const resume = useRef<ReturnType<typeof setTimeout> | null>(null)
  const cancelResume = () => {
    if (resume.current !== null) clearTimeout(resume.current)
    resume.current = null
  }
  useEffect(() => cancelResume, [])
  return (
    <div
      onTouchStart={() => {
        cancelResume()
        handlers.startPause()
      }}
      onTouchEnd={() => {
        cancelResume()
        resume.current = setTimeout(handlers.endPause, TOAST_TOUCH_PAUSE_MS)
      }}
    >
      <Toaster position={position} toastOptions={options}>
        {(t) =>
          queued && !shownIds.has(t.id) ? (
            // Waiting its turn: nothing on screen, nothing announced, no height in the stack.
            <div hidden />
          ) : (
            // A dismissed toast fades out for a second; hide it from assistive technology (and tests) at once.
            <div aria-hidden={t.visible ? undefined : true}>
              <ToastBar toast={t} position={position} />
            </div>
          )
        }
      </Toaster>
    </div>
  )
}
