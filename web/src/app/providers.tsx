// Assembles the app's services from what the host injects and provides them to the tree.
// The host is the browser (main.tsx) or the tests (msw/node).
import type { ReactNode } from 'react'
import { createApiClient } from '../api/client.ts'
import type { FetchLike } from '../api/http-retry.ts'
import { createActivityTracker } from '../lib/services/activity.ts'
import { createErrorReporter } from '../lib/monitoring/error-queue.ts'
import type { RuntimeConfig } from '../lib/config/runtime-config.ts'
import { ServicesProvider, type Services } from '../lib/services/services.ts'
import { createSessionStore, type SessionStore, type SessionStoreDeps } from '../session/session-store.ts'
import { createSessionValues } from '../session/token-storage.ts'
import { SessionProvider } from '../session/use-session.ts'

export type AppDeps = Omit<SessionStoreDeps, 'baseUrl' | 'notify'> &
  Pick<Services, 'randomState' | 'assignLocation' | 'userAgent' | 'toasts' | 'chunks' | 'afterFirstPaint'> & {
    config: RuntimeConfig
    /** The origin the API paths resolve against (config.apiBase, else the page's origin). */
    origin: string
  }

export function createApp(deps: AppDeps): { store: SessionStore; services: Services } {
  const baseUrl = deps.config.apiBase.startsWith('http')
    ? deps.config.apiBase
    : `${deps.origin}${deps.config.apiBase}`
  const fetch: FetchLike = deps.fetch
  const store = createSessionStore({
    ...deps,
    fetch,
    baseUrl,
    notify: (toast) => void deps.toasts.show(toast),
  })
  const activity = createActivityTracker()
  const services: Services = {
    api: createApiClient({ fetch, session: store, baseUrl, activity }),
    values: createSessionValues(deps.storage),
    config: deps.config,
    activity,
    now: () => deps.clock.now(),
    randomState: deps.randomState,
    assignLocation: deps.assignLocation,
    userAgent: deps.userAgent,
    errors: createErrorReporter(),
    fetch,
    origin: deps.origin,
    toasts: deps.toasts,
    chunks: deps.chunks,
    afterFirstPaint: deps.afterFirstPaint,
  }
  return { store, services }
}

export function AppProviders({
  store,
  services,
  children,
}: {
  store: SessionStore
  services: Services
  children?: ReactNode
}) {
  return (
    <SessionProvider store={store}>
      <ServicesProvider services={services}>{children}</ServicesProvider>
    </SessionProvider>
  )
}
