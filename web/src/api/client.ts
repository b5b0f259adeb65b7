// The product's API client: openapi-fetch over the generated types, the network injected (never the global).
import createClient, { type Client } from 'openapi-fetch'
import type { paths } from '#api/openapi.gen.ts'
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
 * The cookie session goes with every call, also to an API on another origin
 * (docs/decisions/020-deploying-on-two-origins.md).
 */
export const API_CREDENTIALS: RequestCredentials = 'include'

/**
 * Counts each call until the caller has its answer or error, retries included.
 * It wraps the methods, not a middleware: a skipped `onResponse` would leave the busy bar on for good.
 */
function trackActivity(client: Client<paths>, activity: ActivityReporter): Client<paths> {
  const tracked: ReadonlySet<PropertyKey> = new Set(TRACKED_METHODS)
  // A proxy rather than new methods: each method keeps its own generic signature, with nothing restated.
  return new Proxy(client, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver)
      if (!tracked.has(property) || typeof value !== 'function') return value
      return (...args: unknown[]) => {
        activity.start()
        try {
          return Promise.resolve(value.apply(target, args)).finally(() => activity.end())
        } catch (error) {
          activity.end()
          throw error
        }
      }
    },
  })
}

/**
 * @example
 * const api = createApiClient({ fetch: window.fetch.bind(window), session: store, baseUrl: '' })
 * const { data, error } = await api.GET('/api/me')
 */
export function createApiClient({ fetch, session, baseUrl = '', activity }: ApiClientOptions) {
  const client = createClient<paths>({ baseUrl, fetch: withHttpRetry(fetch), credentials: API_CREDENTIALS })
  client.use(createAuthMiddleware({ session }))
  return activity ? trackActivity(client, activity) : client
}

export type ApiClient = ReturnType<typeof createApiClient>
