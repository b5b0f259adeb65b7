// When the supporting services start (docs/decisions/012-first-load.md): when the page is idle after load, or at the
// first interaction. So they never compete with the first render. Pure: the window is injected.

/** The longest wait for an idle period once the page has loaded (requestIdleCallback's `timeout`). */
export const IDLE_TIMEOUT_MS = 4_000
/** Without requestIdleCallback (Safari): this long after the load event. */
export const NO_IDLE_CALLBACK_DELAY_MS = 1_500
/** The longest wait for the load event itself (a stalled image or font must not keep monitoring off forever). */
export const LOAD_TIMEOUT_MS = 15_000
/** What counts as the user's first interaction. */
export const INTERACTION_EVENTS = ['pointerdown', 'keydown'] as const

type IdleCallback = (deadline: IdleDeadline) => void

/** What runWhenIdle needs of the window. */
export interface IdleTarget {
  document: Pick<Document, 'readyState'>
  addEventListener(type: string, listener: () => void, options?: AddEventListenerOptions): void
  removeEventListener(type: string, listener: () => void, options?: EventListenerOptions): void
  setTimeout(fn: () => void, ms: number): number
  clearTimeout(id: number): void
  requestIdleCallback?: (fn: IdleCallback, options?: IdleRequestOptions) => number
  cancelIdleCallback?: (id: number) => void
}

export interface RunWhenIdleOptions {
  /** How long to wait after the idle period before running (an interaction still runs it at once). */
  settleMs?: number
  /**
   * Load and idle count only after this settles (the first paint), since a page can go idle before it paints.
   * An interaction still runs it at once.
   */
  after?: PromiseLike<unknown>
}

/**
 * Runs `fn` once: when idle after load (`settleMs` later if given), or at the first interaction.
 * Returns a function that cancels it.
 * @example
 * runWhenIdle(() => void import('./supporting-services.ts'))
 */
export function runWhenIdle(
  fn: () => void,
  target: IdleTarget = window as unknown as IdleTarget,
  { settleMs = 0, after }: RunWhenIdleOptions = {},
): () => void {
  let done = false
  let idleId: number | null = null
  let timerId: number | null = null
  const listenerOptions = { capture: true, passive: true } as const

  const cleanUp = () => {
    INTERACTION_EVENTS.forEach((type) => target.removeEventListener(type, run, listenerOptions))
    target.removeEventListener('load', afterLoad)
    if (idleId !== null) target.cancelIdleCallback?.(idleId)
    if (timerId !== null) target.clearTimeout(timerId)
    idleId = timerId = null
  }
  function run() {
    if (done) return
    done = true
    cleanUp()
    fn()
  }
  function afterIdle() {
    idleId = null
    if (done) return
    if (settleMs > 0) timerId = target.setTimeout(run, settleMs)
    else run()
  }
  function afterLoad() {
    if (done) return
    target.removeEventListener('load', afterLoad)
    if (timerId !== null) target.clearTimeout(timerId)
    if (target.requestIdleCallback) {
      timerId = null
      idleId = target.requestIdleCallback(afterIdle, { timeout: IDLE_TIMEOUT_MS })
    } else timerId = target.setTimeout(afterIdle, NO_IDLE_CALLBACK_DELAY_MS)
  }

  function watchLoad() {
    if (done) return
    if (target.document.readyState === 'complete') afterLoad()
    else {
      target.addEventListener('load', afterLoad, { once: true })
      timerId = target.setTimeout(afterLoad, LOAD_TIMEOUT_MS)
    }
  }

  INTERACTION_EVENTS.forEach((type) => target.addEventListener(type, run, listenerOptions))
  if (after) void Promise.resolve(after).then(watchLoad, watchLoad)
  else watchLoad()
  return () => {
    done = true
    cleanUp()
  }
}
