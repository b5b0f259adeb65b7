// Error reporting with @sentry/react (spec 7, 9): the SDK is imported when this runs, after first paint, so it is
// not in the initial bundle. Unhandled errors are the SDK's own global handlers' (and the early listener's before
// them); the error page reports what the router caught through the reporter.
import { BUILD_ID, SENTRY_DSN_FALLBACK } from './build-info.ts'
import type { ErrorReporter } from './error-reporter.ts'
import type { RuntimeConfig } from './runtime-config.ts'
import { getSentryOptions } from './sentry-options.ts'

type SentrySdk = Pick<
  typeof import('@sentry/react'),
  'init' | 'captureException' | 'browserTracingIntegration'
>

export interface ErrorReportingDeps {
  config: Pick<RuntimeConfig, 'sentryDsn' | 'environment'>
  reporter: ErrorReporter
  /** Stops the early listener (listenForUnhandledErrors) once the SDK's handlers are in. */
  stopEarlyListener?: () => void
  loadSdk?: () => Promise<SentrySdk>
  fallbackDsn?: string | null
  release?: string | null
}

/** Starts the SDK when a DSN is known; resolves to whether reporting is on. */
export async function startErrorReporting({
  config,
  reporter,
  stopEarlyListener = () => {},
  loadSdk = () => import('@sentry/react'),
  fallbackDsn = SENTRY_DSN_FALLBACK,
  release = BUILD_ID,
}: ErrorReportingDeps): Promise<boolean> {
  const options = getSentryOptions({ config, fallbackDsn, release })
  if (!options) {
    stopEarlyListener()
    reporter.disable()
    return false
  }
  try {
    const sdk = await loadSdk()
    sdk.init({ ...options, integrations: [sdk.browserTracingIntegration()] })
    stopEarlyListener()
    reporter.attach((error) => void sdk.captureException(error))
    return true
  } catch (error) {
    stopEarlyListener()
    reporter.disable()
    console.warn('Failed to start error reporting:', error)
    return false
  }
}
