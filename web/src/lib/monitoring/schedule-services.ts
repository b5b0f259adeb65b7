// The first-load side of the supporting services (docs/decisions/012-first-load.md): all main.tsx loads of them. It
// listens for unhandled errors at once (they wait in the reporter's queue) and loads the services' chunk
// (supporting-services.ts, which loads each SDK) only once the page is idle or the user first interacts.
import { listenForUnhandledErrors } from './error-reporter.ts'
import { runWhenIdle, type IdleTarget } from './idle-start.ts'
import type { SupportingServicesDeps } from './supporting-services.ts'

export interface ScheduleOptions {
  target?: IdleTarget & Pick<Window, 'addEventListener' | 'removeEventListener'>
  load?: () => Promise<Pick<typeof import('./supporting-services.ts'), 'startSupportingServices'>>
  /** Further chunks worth having before they are needed (fetched at the same moment). */
  prefetch?: (() => Promise<unknown>)[]
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
  }: ScheduleOptions = {},
): void {
  const stopEarlyListener = listenForUnhandledErrors(target, deps.errors)
  runWhenIdle(() => {
    void load().then(({ startSupportingServices }) => startSupportingServices({ ...deps, stopEarlyListener }))
    prefetch.forEach((chunk) => void chunk().catch(() => undefined))
  }, target)
}
