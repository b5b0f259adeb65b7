// The product's API client: openapi-fetch over the generated types, the network injected (never the global).
import createClient, { type Client } from 'openapi-fetch'
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

const TRACKED_METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'] as const

/**
 * Counts each call from its sending until the caller has its answer or error, whatever happens in between (a 401,
 * the refresh, the retry, a network failure of the retry). Wrapping the methods rather than a middleware: a
 * middleware's `onResponse` is skipped when an earlier one throws, and a count left at one keeps the bar for good.
 */
function trackActivity(client: Client<paths>, activity: ActivityReporter): void {
  const methods = client as unknown as Record<
    (typeof TRACKED_METHODS)[number],
    (...args: unknown[]) => Promise<unknown>
  >
  for (const method of TRACKED_METHODS) {
    const send = methods[method]
    methods[method] = (...args) => {
      activity.start()
      return send(...args).finally(() => activity.end())
    }
  }
}

/**
 * @example
 * const api = createApiClient({ fetch: window.fetch.bind(window), session: store, baseUrl: '' })
 * const { data, error } = await api.GET('/api/me')
 */
export function createApiClient({ fetch, session, baseUrl = '', activity }: ApiClientOptions) {
  const client = createClient<paths>({ baseUrl, fetch: withHttpRetry(fetch) })
  client.use(createAuthMiddleware({ session }))
  if (activity) trackActivity(client, activity)
  return client
}

export type ApiClient = ReturnType<typeof createApiClient>
