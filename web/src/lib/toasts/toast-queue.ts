// The second toast reading's queue (docs/behaviour.md: Constants: at most 4 shown, the rest queued): which toasts are on screen and how
// long each has left. Pure: no React, no timers, no clock (time comes in as arguments).

export interface QueuedToast {
  id: string
  visible: boolean
  /** react-hot-toast's creation time; a toast updated in place (a promise settling) gets a new one. */
  createdAt: number
  pauseDuration: number
}

/**
 * The toasts on screen: the oldest `limit` visible ones, plus those fading out.
 * `toasts` come newest first, as react-hot-toast keeps them.
 * @example
 * pickShownToasts([e, d, c, b, a], 4) // [a, b, c, d]; e waits for one of them to go
 */
export function pickShownToasts<T extends QueuedToast>(toasts: readonly T[], limit: number): T[] {
  const oldestFirst = [...toasts].reverse()
  const visible = oldestFirst.filter((toast) => toast.visible).slice(0, limit)
  return oldestFirst.filter((toast) => !toast.visible || visible.includes(toast))
}

/** When a toast was first shown, and its pause total then (pauses while it waited do not count). */
export interface ShownSince {
  at: number
  pauseDuration: number
}

/** A toast's identity for its display time: a promise toast that settles is a new toast on screen. */
export const shownKey = (toast: QueuedToast) => `${toast.id}@${toast.createdAt}`

/**
 * The time a shown toast has left: its duration from the moment it was shown, plus the pauses since then.
 * @example
 * getRemainingMs({ duration: 5000, since: { at: 1000, pauseDuration: 0 }, pauseDuration: 2000, now: 4000 }) // 4000
 */
export function getRemainingMs({
  duration,
  since,
  pauseDuration,
  now,
}: {
  duration: number
  since: ShownSince
  pauseDuration: number
  now: number
}): number {
  if (duration === Infinity) return Infinity
  return Math.max(0, duration + (pauseDuration - since.pauseDuration) - (now - since.at))
}
