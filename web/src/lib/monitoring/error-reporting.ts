// Error reporting with @sentry/react (docs/decisions/008): its options (docs/behaviour.md: Constants), identity rules
// and start. The SDK is imported after first paint (sentry-sdk.ts), so none of it is in the initial bundle.
// The options and identity rules are pure, so they are tested without it.
import type { BrowserOptions, User } from '@sentry/react'
import { BUILD_ID, SENTRY_DSN_FALLBACK } from '../config/build-info.ts'
import { SENTRY_MAX_BREADCRUMBS, SENTRY_TRACES_SAMPLE_RATE } from '../config/constants.ts'
import type { RuntimeConfig } from '../config/runtime-config.ts'
import type { ErrorReporter } from './error-queue.ts'
import { FAILED_TO_START_REPORTING } from './messages.ts'
import { followIdentity, type IdentityStore, type IdentityUser } from './session-identity.ts'

/**
 * Tracing headers go to localhost and same-origin paths only (docs/behaviour.md: Calls). Set explicitly: the
 * default changed across majors, and a disallowed header would break a cross-origin call.
 */
export const TRACE_PROPAGATION_TARGETS: (string | RegExp)[] = ['localhost', /^\//]

/** Browser noise that says nothing about the app (a layout observer that could not deliver in one frame). */
export const IGNORED_ERRORS: (string | RegExp)[] = [
  'ResizeObserver loop limit exceeded',
  'ResizeObserver loop completed with undelivered notifications',
]

/**
 * The envelopes go without `keepalive`. Chromium counts a keepalive request against a 64 KiB budget until its
 * answer's body is read, and the SDK never reads it. So after one large envelope, the next ones (errors too)
 * failed as "Failed to fetch". Losing keepalive costs little: the app is one page.
 */
export const TRANSPORT_OPTIONS = { fetchOptions: { keepalive: false } } as const

export type SentryOptions = Required<
  Pick<
    BrowserOptions,
    | 'dsn'
    | 'environment'
    | 'tracesSampleRate'
    | 'maxBreadcrumbs'
    | 'tracePropagationTargets'
    | 'ignoreErrors'
    | 'transportOptions'
  >
> &
  Pick<BrowserOptions, 'release'>

/**
 * The options, or null when no DSN is known (reporting off).
 * The DSN is config.json's `sentryDsn`, else the build's.
 * @example
 * getSentryOptions({ config, fallbackDsn: null, release: 'lx3k2-9f1c' })?.tracesSampleRate // 1
 */
export function getSentryOptions({
  config,
  fallbackDsn,
  release,
}: {
  config: Pick<RuntimeConfig, 'sentryDsn' | 'environment'>
  fallbackDsn: string | null
  release: string | null
}): SentryOptions | null {
  const dsn = config.sentryDsn ?? fallbackDsn
  if (!dsn) return null
  return {
    dsn,
    environment: config.environment || 'development',
    ...(release && { release }),
    tracesSampleRate: SENTRY_TRACES_SAMPLE_RATE,
    maxBreadcrumbs: SENTRY_MAX_BREADCRUMBS,
    tracePropagationTargets: TRACE_PROPAGATION_TARGETS,
    ignoreErrors: IGNORED_ERRORS,
    transportOptions: TRANSPORT_OPTIONS,
  }
}

// The identity rules: signed in, events carry the user's id and e-mail. Once the session ends, they carry no user,
// and the release-health session that saw the old user ends.

/** The part of the Sentry SDK the identity rules use. */
export interface SentryIdentitySdk {
  setUser(user: User | null): void
  startSession(): unknown
  captureSession(): void
}

/**
 * The user as events carry it: the id and the e-mail, no more.
 * @example
 * getSentryUser({ id: 'u1', email: 'ada@example.com', name: 'Ada' }) // { id: 'u1', email: 'ada@example.com' }
 */
export function getSentryUser(user: IdentityUser): User {
  return { ...(user.id && { id: user.id }), ...(user.email && { email: user.email }) }
}

/**
 * Follows the session store: sets the user once the first session fetch has settled, then whenever it changes.
 * Returns a function that stops following.
 * @example
 * followSentryIdentity({ sdk: Sentry, store }) // before the reporter takes its waiting errors
 */
export function followSentryIdentity({
  sdk,
  store,
}: {
  sdk: SentryIdentitySdk
  store: IdentityStore
}): () => void {
  return followIdentity(store, (change) => {
    if (change.kind !== 'ended') {
      sdk.setUser(change.kind === 'signed-in' ? getSentryUser(change.user) : null)
      return
    }
    sdk.setUser(change.next ? getSentryUser(change.next) : null)
    // A release-health session keeps the first user it saw, whatever setUser says later.
    // So end it and start a new one, sent at once.
    sdk.startSession()
    sdk.captureSession()
  })
}

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
