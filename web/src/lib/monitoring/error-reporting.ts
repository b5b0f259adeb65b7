// Error reporting with @sentry/react (docs/decisions/008), the one module of that SDK: its options
// (docs/behaviour.md: Constants), its identity rules and its start. The SDK itself is imported when startErrorReporting
// runs, after first paint (sentry-sdk.ts), so neither it nor this module is in the initial bundle; the options and
// the identity rules are pure and tested without it. Unhandled errors are the SDK's own global handlers' (and the
// early listener's before them, error-queue.ts); the error page reports what the router caught through the queue.
import type { BrowserOptions, User } from '@sentry/react'
import { BUILD_ID, SENTRY_DSN_FALLBACK } from '../config/build-info.ts'
import { SENTRY_MAX_BREADCRUMBS, SENTRY_TRACES_SAMPLE_RATE } from '../config/constants.ts'
import type { RuntimeConfig } from '../config/runtime-config.ts'
import type { ErrorReporter } from './error-queue.ts'
import { FAILED_TO_START_REPORTING } from './messages.ts'
import { followIdentity, type IdentityStore, type IdentityUser } from './session-identity.ts'

/**
 * Tracing headers go to localhost and to same-origin relative paths only (docs/behaviour.md: Calls). Set explicitly: the SDK's
 * default changed across majors, and a header the API did not allow would break a cross-origin call.
 */
export const TRACE_PROPAGATION_TARGETS: (string | RegExp)[] = ['localhost', /^\//]

/** Browser noise that says nothing about the app (a layout observer that could not deliver in one frame). */
export const IGNORED_ERRORS: (string | RegExp)[] = [
  'ResizeObserver loop limit exceeded',
  'ResizeObserver loop completed with undelivered notifications',
]

/**
 * The envelopes go without `keepalive`. The SDK's fetch transport sets it while its own unanswered envelopes total at
 * most 60 kB, counting an envelope as done once its answer's headers arrive; but Chromium keeps a keepalive request's
 * bytes against the page's 64 KiB keepalive budget until the answer's body has been read, which the SDK never does.
 * So after a large span envelope (tens of kB: a page load, a few navigations) the next envelopes, an error among
 * them, fail in the browser as "Failed to fetch" and are discarded ('network_error' in the next client report)
 * until the garbage collector frees the old answers. Without keepalive nothing counts against that budget; what it
 * gave, an envelope outliving the page, matters little here: the app is one page, and its reloads come after
 * whatever it reported has long gone.
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
 * The options, or null when no DSN is known (reporting off). The DSN is config.json's `sentryDsn`, else the one
 * the build was given; the environment is config.json's, which defaults to 'development' (../config/runtime-config.ts).
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

// The identity rules: signed in, events carry the user's id and e-mail; from any ending of the session on (log-out,
// a forced sign-out, a failed refresh, another user), they carry no user, and the release-health session that saw the
// old user ends.

/** The part of the Sentry SDK the identity rules use. */
export interface SentryIdentitySdk {
  setUser(user: User | null): void
  startSession(): unknown
  captureSession(): void
}

/**
 * The user as events carry it: the id and the e-mail (the recorder already names the user by e-mail), no more.
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
    // A release-health session keeps the first user it saw (its `did`) whatever setUser says later: end it and
    // start one for whoever is here now, sent at once so the old one is closed at the ending.
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
