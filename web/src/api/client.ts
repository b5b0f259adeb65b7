// The product's API client: openapi-fetch over the generated types, the network injected (never the global).
import createClient, { type Middleware } from 'openapi-fetch'
import type { paths } from '#contracts/openapi.gen.ts'
import { createAuthMiddleware, type AuthSession } from './auth-middleware.ts'
import { withHttpRetry, type FetchLike } from './http-retry.ts'

/** Counts calls in flight (the layout's loading bar). */
export interface ActivityReporter {
  start(): void
  end(): void
}

export interface ApiClientOptions {
  fetch: FetchLike
  session: AuthSession
  baseUrl?: string
  activity?: ActivityReporter
}

function createActivityMiddleware(activity: ActivityReporter): Middleware {
  const open = new Set<string>()
  const end = (id: string) => {
    // Stryker disable next-line ConditionalExpression: equivalent, openapi-fetch ends each call once
    if (open.delete(id)) activity.end()
  }
  return {
    onRequest({ id }) {
      open.add(id)
      activity.start()
    },
    onResponse({ id }) {
      end(id)
    },
    onError({ id }) {
      end(id)
    },
  }
}

/**
 * @example
 * const api = createApiClient({ fetch: window.fetch.bind(window), session: store, baseUrl: '' })
 * const { data, error } = await api.GET('/api/me')
 */
export function createApiClient({ fetch, session, baseUrl = '', activity }: ApiClientOptions) {
  const client = createClient<paths>({ baseUrl, fetch: withHttpRetry(fetch) })
  // onResponse runs in reverse order: the activity ends after the 401 rule's retry.
  if (activity) client.use(createActivityMiddleware(activity))
  client.use(createAuthMiddleware({ session }))
  return client
}

export type ApiClient = ReturnType<typeof createApiClient>
