// A session store and API client over a fake clock, in-memory storage and a tiny recorded backend.
import { createApiClient } from '../api/client.ts'
import type { ChannelLike, LockManagerLike } from '../session/cross-tab.ts'
import { createSessionStore } from '../session/session-store.ts'
import { createFakeClock } from './fake-clock.ts'
import { createMemoryStorage } from './memory-storage.ts'
import { createRecordingFetch, json, type RecordedCall } from './recording-fetch.ts'

/** A route override; answering undefined falls through to the default backend. */
export type Route = (
  request: Request,
  body: string,
  call: RecordedCall,
) => Response | undefined | Promise<Response | undefined>

export const BASE_URL = 'http://app.test'

export interface HarnessOptions {
  /** Initial sessionStorage content. */
  stored?: Record<string, string>
  /** Overrides by "METHOD /path"; return undefined to fall through to the default backend. */
  routes?: Record<string, Route>
  storage?: Storage
  locks?: LockManagerLike | null
  channel?: ChannelLike | null
  clock?: ReturnType<typeof createFakeClock>
  /** The hash of the retired refresh token in rotation announcements (default: `hash(<token>)`, at once). */
  hash?: (text: string) => Promise<string>
  /** The refresh backend's shared state, for several tabs against one server. */
  backend?: ReturnType<typeof createBackend>
}

/** The fake server's token state: every refresh rotates; a retired refresh token is refused. */
export function createBackend() {
  const backend = {
    rotations: 0,
    liveAccess: new Set<string>(['access-0']),
    liveRefresh: new Set<string>(['refresh-0']),
    refresh(presented: string) {
      if (!backend.liveRefresh.has(presented)) {
        return json(401, { success: false, error: 'refresh_reused', message: 'Refresh token reused' })
      }
      backend.liveRefresh.delete(presented)
      backend.rotations += 1
      const pair = { token: `access-${backend.rotations}`, refresh_token: `refresh-${backend.rotations}` }
      backend.liveAccess.clear()
      backend.liveAccess.add(pair.token)
      backend.liveRefresh.add(pair.refresh_token)
      return json(200, { success: true, ...pair })
    },
  }
  return backend
}

const ADA = { id: 'u1', email: 'ada@example.com', name: 'Ada' }

export const SIGNED_IN_STORAGE = {
  accessToken: 'access-0',
  refreshToken: 'refresh-0',
  serviceToken: 'service-0',
}

export function createHarness(options: HarnessOptions = {}) {
  const clock = options.clock ?? createFakeClock()
  const storage = options.storage ?? createMemoryStorage(options.stored ?? {})
  const backend = options.backend ?? createBackend()
  const toasts: { kind: string; message: string }[] = []
  const navigations: string[] = []
  /** The navigations that replaced the current history entry. */
  const replaced: string[] = []
  const logs: string[] = []
  const net = createRecordingFetch(async (request, body, call) => {
    const route = options.routes?.[`${call.method} ${call.path}`]
    const answer = route ? await route(request, body, call) : undefined
    if (answer) return answer
    switch (`${call.method} ${call.path}`) {
      case 'POST /api/refresh_token':
        return backend.refresh((JSON.parse(body) as { refresh_token: string }).refresh_token)
      case 'GET /api/_auth/session':
        return json(200, { user: ADA }) // the cookie session of the seeded tab; override for a signed-out one
      case 'DELETE /api/_auth/session':
        return json(200, { loggedOut: true })
      case 'GET /api/me': {
        const token = call.authorization?.replace(/^Bearer /, '') ?? ''
        if (backend.liveAccess.has(token))
          return json(200, { id: 'u1', email: 'ada@example.com', name: 'Ada' })
        return json(
          401,
          token ? { error: 'token_expired', message: 'Token expired' } : { message: 'No token' },
        )
      }
    }
    return json(404, { error: 'not_found', message: `No fake route for ${call.method} ${call.path}` })
  })
  const store = createSessionStore({
    fetch: net.fetch,
    baseUrl: BASE_URL,
    storage,
    clock,
    timers: clock,
    navigate: (to, options) => void (navigations.push(to), options?.replace && replaced.push(to)),
    notify: (toast) => toasts.push(toast),
    log: (message) => logs.push(message),
    hash: options.hash ?? (async (text) => `hash(${text})`),
    locks: options.locks ?? null,
    channel: options.channel ?? null,
  })
  const api = createApiClient({ fetch: net.fetch, session: store, baseUrl: BASE_URL })
  return { clock, storage, backend, net, store, api, toasts, navigations, replaced, logs }
}

export type Harness = ReturnType<typeof createHarness>
