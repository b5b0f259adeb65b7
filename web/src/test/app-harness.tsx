// Renders the whole app in jsdom against the mock server's MSW host, so a screen test walks a flow end to end.
import { act, render } from '@testing-library/react'
import { toast } from 'react-hot-toast'
import { userEvent } from '@testing-library/user-event'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createMockClient } from '#api/mock-client.ts'
import type { MockCore } from '#mock-server/core.ts'
import { createMswHandlers, type MswHostOptions } from '#mock-server/hosts/msw.ts'
import { createCompiledDocuments } from '#mock-server/pipeline/openapi-docs.ts'
import { AppProviders, createApp } from '../app/providers.tsx'
import { createMemoryAppRouter, type AppRouter } from '../app/app-router.ts'
import { AppRouterView } from '../app/router.tsx'
import { DEFAULT_RUNTIME_CONFIG, type RuntimeConfig } from '../lib/config/runtime-config.ts'
import { createChunkLoads } from '../lib/navigation/chunk-loads.ts'
import { createToasts } from '../lib/toasts/toasts.ts'
import { createMemoryStorage } from './memory-storage.ts'

export const ORIGIN = 'http://app.test'
/** Seeded accounts of the mock server (README). */
export const ADA = { email: 'ada@example.com', password: 'analytical-engine-1843', name: 'Ada Lovelace' }
export const ALAN = { email: 'alan@example.com', password: 'imitation-game-1950', name: 'Alan Turing' }

const server = setupServer()

/** The documents compiled once per test file: most of a fresh backend's cost. Each backend keeps its own state. */
const documents = createCompiledDocuments()

/** The cookies the mock server set, as a browser's jar keeps them for its origin (the session and `sso` cookies). */
const jar = new Map<string, string>()

/**
 * fetch as a browser at ORIGIN: it sends and keeps cookies.
 * The app's calls and the test's own share the jar, as in a browser.
 * @example const authorize = await browserFetch(`${ORIGIN}/api/auth/external/authorize?...`, { redirect: 'manual' })
 */
export async function browserFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init)
  if (jar.size > 0 && new URL(request.url).origin === ORIGIN)
    request.headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '))
  const response = await globalThis.fetch(request)
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';')
    const at = pair.indexOf('=')
    const name = pair.slice(0, at).trim()
    if (/;\s*max-age=0\b/i.test(cookie) || pair.slice(at + 1) === '') jar.delete(name)
    else jar.set(name, pair.slice(at + 1))
  }
  return response
}

/** Call once per test file: starts msw/node; unhandled requests fail the test. */
export function useMockServer() {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
  afterEach(() => {
    server.resetHandlers()
    jar.clear()
  })
  afterAll(() => server.close())
}

export interface RenderAppOptions {
  stored?: Record<string, string>
  mock?: MswHostOptions
  userAgent?: string
  /** Runtime configuration fields other than the defaults (e.g. `mock: true` for the QA panel). */
  config?: Partial<RuntimeConfig>
  /** Runs on the fresh mock before the app starts (arm scenarios for the first calls). */
  beforeStart?: (core: MockCore) => void
}

/** A fresh mock backend and a fresh app at `path`. */
export async function renderApp(path: string, options: RenderAppOptions = {}) {
  const { handlers, core } = createMswHandlers({
    baseUrl: ORIGIN,
    hasher: { memoryCost: 1024, timeCost: 1 },
    documents,
    ...options.mock,
  })
  server.resetHandlers(...handlers)
  await core.ready
  options.beforeStart?.(core)
  const storage = createMemoryStorage(options.stored ?? {})
  const assigned: string[] = []
  const logs: string[] = []
  const router: AppRouter = createMemoryAppRouter(path)
  const { store, services } = createApp({
    config: { ...DEFAULT_RUNTIME_CONFIG, ...options.config },
    origin: ORIGIN,
    fetch: (request) => browserFetch(request),
    storage,
    clock: Date,
    timers: {
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
    },
    navigate: (to, options) => void router.navigate(to, options),
    // A page of its own: its toasts and lazy chunks; jsdom paints nothing, so nothing waits for a first paint.
    toasts: createToasts(),
    chunks: createChunkLoads(),
    afterFirstPaint: () => Promise.resolve(),
    log: (message) => logs.push(message),
    hash: async (text) => `hash(${text})`,
    randomState: () => 'state-0123456789abcdef',
    assignLocation: (url) => assigned.push(url),
    userAgent: options.userAgent ?? navigator.userAgent, // jsdom's own: '... jsdom/<version>', not a crawler
  })
  store.start()
  const user = userEvent.setup()
  const view = render(
    <AppProviders store={store} services={services}>
      <AppRouterView router={router} />
    </AppProviders>,
  )
  afterEachDispose.push(() => store.dispose())
  // The one /__mock client of every suite (api/mock-client.ts), through the same MSW host.
  const mock = createMockClient({ baseUrl: ORIGIN })
  return { ...view, router, store, services, storage, core, mock, user, assigned, logs }
}

const afterEachDispose: (() => void)[] = []
afterEach(() => {
  while (afterEachDispose.length > 0) afterEachDispose.pop()?.()
  act(() => toast.remove()) // react-hot-toast keeps its toasts in a module-level store
})

/** The journal's calls of one operation. */
export async function callsOf(
  core: { ops: { journal: { list(): Promise<{ operation?: string }[]> } } },
  operation: string,
) {
  return (await core.ops.journal.list()).filter((entry) => entry.operation === operation)
}
