// The error reporter's options (docs/behaviour.md: Constants), split from the SDK's wiring (error-reporting.ts) so they are tested
// without the SDK, in the manner of epic-stack's sentry-event-filters.ts. Pure: imports only types.
import type { BrowserOptions } from '@sentry/react'
import { SENTRY_MAX_BREADCRUMBS, SENTRY_TRACES_SAMPLE_RATE } from '../config/constants.ts'
import type { RuntimeConfig } from '../config/runtime-config.ts'

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
