// The app's handle on error reporting from the first render. The SDK loads after first paint, so earlier errors
// wait in a short queue.

/** How many early errors are kept for the SDK. More are dropped, so a crash loop cannot pile up. */
const QUEUE_LIMIT = 20

export interface ErrorReporter {
  /** Reports an error the app caught (the error page's). */
  report(error: unknown): void
  /** The SDK is ready: sends what waited, and everything after. */
  attach(capture: (error: unknown) => void): void
  /** No reporting configured: forgets what waited, and everything after. */
  disable(): void
  /** Calls `listener` once, when the first error waits for the SDK (at once if one already does). */
  onWaiting(listener: () => void): void
}

/**
 * @example
 * const errors = createErrorReporter()
 * errors.report(new Error('early')) // kept
 * errors.attach((error) => Sentry.captureException(error)) // sent now
 */
export function createErrorReporter(): ErrorReporter {
  let waiting: unknown[] | null = []
  let capture: ((error: unknown) => void) | null = null
  let waitingListeners: (() => void)[] = []
  const notifyWaiting = () => {
    const listeners = waitingListeners
    waitingListeners = []
    listeners.forEach((listener) => listener())
  }
  return {
    report(error) {
      if (capture) capture(error)
      else if (waiting && waiting.length < QUEUE_LIMIT) {
        waiting.push(error)
        notifyWaiting()
      }
    },
    attach(next) {
      capture = next
      const queued = waiting ?? []
      waiting = null
      queued.forEach((error) => next(error))
    },
    disable() {
      waiting = null
      waitingListeners = []
    },
    onWaiting(listener) {
      if (waiting?.length) listener()
      else if (waiting) waitingListeners.push(listener)
    },
  }
}

/**
 * Until the SDK installs its own global handlers, unhandled errors and rejections go to the reporter's queue.
 * Returns a function that stops listening (call it once the SDK is in place).
 */
export function listenForUnhandledErrors(
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>,
  reporter: Pick<ErrorReporter, 'report'>,
): () => void {
  const onError = (event: Event) =>
    reporter.report((event as ErrorEvent).error ?? (event as ErrorEvent).message)
  const onRejection = (event: Event) => reporter.report((event as PromiseRejectionEvent).reason)
  target.addEventListener('error', onError)
  target.addEventListener('unhandledrejection', onRejection)
  return () => {
    target.removeEventListener('error', onError)
    target.removeEventListener('unhandledrejection', onRejection)
  }
}
