// The supporting services (docs/decisions/008): error reporting, the session recorder and the hourly version check.
// A lazy chunk, started late by schedule-services.ts (docs/decisions/012-first-load.md).
import { appBaseUrl, BUILD_ID } from '../config/build-info.ts'
import type { ErrorReporter } from './error-queue.ts'
import type { RecorderDeps } from './recorder.ts'
import type { RuntimeConfig } from '../config/runtime-config.ts'
import type { Toasts } from '../toasts/toasts.ts'
import { FAILED_TO_START_RECORDER, FAILED_TO_START_REPORTING } from './messages.ts'
import {
  createVersionCheck,
  installFullLoadOnNavigation,
  type NavigatingRouter,
} from '../navigation/version-check.ts'

/** The new-version toast (docs/behaviour.md: Session leaves open what happens; here an info toast with a reload action). */
export const NEW_VERSION_MESSAGE = 'A new version of the app is available.'
export const NEW_VERSION_ACTION = 'Reload'

export interface SupportingServicesDeps {
  config: RuntimeConfig
  store: RecorderDeps['store']
  errors: ErrorReporter
  router: NavigatingRouter
  /** Where the new-version toast shows. */
  toasts: Pick<Toasts, 'show'>
  /** Stops the early listener of unhandled errors (listenForUnhandledErrors) once the SDK's handlers are in. */
  stopEarlyListener: () => void
}

/** What runAfterFirstPaint needs of the window. */
export type PaintTarget = Pick<Window, 'requestAnimationFrame' | 'setTimeout' | 'addEventListener'> & {
  document: Pick<Document, 'readyState'>
}

/** Runs `fn` after the page has loaded and painted. */
export function runAfterFirstPaint(fn: () => void, target: PaintTarget = window): void {
  const afterPaint = () => target.requestAnimationFrame(() => target.setTimeout(fn, 0))
  if (target.document.readyState === 'complete') afterPaint()
  else target.addEventListener('load', afterPaint, { once: true })
}

function startVersionCheck(router: NavigatingRouter, toasts: Pick<Toasts, 'show'>): void {
  if (BUILD_ID === null) return // not a build: nothing to compare with
  const check = createVersionCheck({
    currentId: BUILD_ID,
    fetch: (request) => window.fetch(request),
    appBase: appBaseUrl(window.location.origin),
    timers: {
      setInterval: (fn, ms) => window.setInterval(fn, ms),
      clearInterval: (id) => window.clearInterval(id as number),
    },
    onNewVersion: () =>
      void toasts.show({
        kind: 'info',
        message: NEW_VERSION_MESSAGE,
        id: 'new-version',
        persistent: true,
        action: { label: NEW_VERSION_ACTION, onAction: () => window.location.reload() },
      }),
  })
  installFullLoadOnNavigation({
    router,
    isOutdated: () => check.getNewerBuild() !== null,
    assign: (href) => window.location.assign(href),
  })
  check.start()
}

/**
 * Starts them now (schedule-services.ts calls it when the page is idle).
 * @example
 * startSupportingServices({ config, store, errors: services.errors, router, toasts, stopEarlyListener })
 */
export function startSupportingServices({
  config,
  store,
  errors,
  router,
  toasts,
  stopEarlyListener,
}: SupportingServicesDeps): void {
  const logger = {
    log: (message: string) => console.log(message),
    warn: (message: string, error?: unknown) => console.warn(message, error),
  }
  // Each SDK's wiring loads with it, so none is in the first load. A failed chunk leaves that service off and logs,
  // never an unhandled rejection. Async functions, not `import(...).then(...)` (eslint.config.js says why).
  const reporting = (async () => {
    const { startErrorReporting } = await import('./error-reporting.ts')
    return startErrorReporting({ config, reporter: errors, store, stopEarlyListener })
  })().catch((error: unknown) => {
    // As when the SDK itself cannot start (error-reporting.ts): nothing will take the waiting errors.
    stopEarlyListener()
    errors.disable()
    logger.warn(FAILED_TO_START_REPORTING, error)
  })
  // The recorder starts after the error reporter. Otherwise the reporter probes for the real fetch in a
  // throwaway iframe, which upsets whatever inspects the page then (an accessibility scan).
  void reporting.then(async () => {
    try {
      const { startRecorder } = await import('./recorder.ts')
      await startRecorder({ config, store, logger })
    } catch (error) {
      logger.warn(FAILED_TO_START_RECORDER, error)
    }
  })
  startVersionCheck(router, toasts)
}
