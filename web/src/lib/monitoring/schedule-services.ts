// The first-load side of the supporting services (docs/decisions/012-first-load.md): all main.tsx loads of them.
// It queues unhandled errors at once and loads the services' chunk late: at the first interaction, the first error,
// or SERVICES_SETTLE_MS after idle.
import { listenForUnhandledErrors } from './error-queue.ts'
import { runWhenIdle, type IdleTarget } from './idle-start.ts'
import { FAILED_TO_LOAD_SERVICES } from './messages.ts'
import type { SupportingServicesDeps, startSupportingServices } from './supporting-services.ts'

/** How long after the first idle period the services start when nothing (an interaction, an error) started them. */
export const SERVICES_SETTLE_MS = 10_000

export interface ScheduleOptions {
  target?: IdleTarget & Pick<Window, 'addEventListener' | 'removeEventListener'>
  load?: () => Promise<{ startSupportingServices: typeof startSupportingServices }>
  /** Further chunks worth having before they are needed (fetched at the same moment). */
  prefetch?: (() => Promise<unknown>)[]
  /** Idle is looked for only once this settles: the page's first paint (idle-start.ts `after`). */
  after?: PromiseLike<unknown>
}

/**
 * @example
 * scheduleSupportingServices({ config, store, errors: services.errors, router })
 */
export function scheduleSupportingServices(
  deps: Omit<SupportingServicesDeps, 'stopEarlyListener'>,
  {
    target = window as unknown as NonNullable<ScheduleOptions['target']>,
    load = () => import('./supporting-services.ts'),
    prefetch = [],
    after,
  }: ScheduleOptions = {},
): void {
  const stopEarlyListener = listenForUnhandledErrors(target, deps.errors)
  let started = false
  const start = () => {
    if (started) return
    started = true
    cancelStart()
    // A failed chunk leaves the services off for this page. No reporter is there to tell, so log it.
    void load().then(
      ({ startSupportingServices }) => startSupportingServices({ ...deps, stopEarlyListener }),
      (error: unknown) => console.warn(FAILED_TO_LOAD_SERVICES, error),
    )
  }
  const cancelStart = runWhenIdle(start, target, { settleMs: SERVICES_SETTLE_MS, after })
  deps.errors.onWaiting(start)
  runWhenIdle(() => prefetch.forEach((chunk) => void chunk().catch(() => undefined)), target, { after })
}
