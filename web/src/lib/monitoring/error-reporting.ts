// Error reporting with @sentry/react (docs/decisions/008): the SDK is imported when this runs, after first paint, so
// it is not in the initial bundle. Unhandled errors are the SDK's own global handlers' (and the early listener's
// before them); the error page reports what the router caught through the reporter. The user follows the session
// (sentry-identity.ts).
import { BUILD_ID, SENTRY_DSN_FALLBACK } from '../config/build-info.ts'
import type { ErrorReporter } from './error-reporter.ts'
import type { RuntimeConfig } from '../config/runtime-config.ts'
import { followSentryIdentity } from './sentry-identity.ts'
import { FAILED_TO_START_REPORTING } from './messages.ts'
import { getSentryOptions } from './sentry-options.ts'
import type { IdentityStore } from './session-identity.ts'

type SentrySdk = Pick<
  typeof import('@sentry/react'),
  'init' | 'captureException' | 'browserTracingIntegration' | 'setUser' | 'startSession' | 'captureSession'
>

export interface ErrorReportingDeps {
  config: Pick<RuntimeConfig, 'sentryDsn' | 'environment'>
  reporter: ErrorReporter
  /** The session store, whose user the events carry. */
  store: IdentityStore
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
  store,
  stopEarlyListener = () => {},
  loadSdk = () => import('./sentry-sdk.ts'),
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
    // The user before the waiting errors go: each is sent with the user of the moment it is sent.
    followSentryIdentity({ sdk, store })
    stopEarlyListener()
    reporter.attach((error) => void sdk.captureException(error))
    return true
  } catch (error) {
    stopEarlyListener()
    reporter.disable()
    console.warn(FAILED_TO_START_REPORTING, error)
    return false
  }
}
