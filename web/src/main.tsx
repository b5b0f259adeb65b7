// The browser entry, and the only file that touches the browser's globals: reads config.json once, wires the
// session store and API client to the browser, then renders the router.
import { startTransition, StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { AppProviders, createApp } from './app/providers.tsx'
import { createAppRouter } from './app/app-router.ts'
import { AppRouterView, loadErrorPage } from './app/router.tsx'
import { installTestHook } from './app/test-hook.ts'
import { signInFirst } from './app/require-sign-in.tsx'
import { createChunkLoads } from './lib/navigation/chunk-loads.ts'
import { createChunkReload } from './lib/navigation/chunk-reload.ts'
import { createFirstPaint, type FirstPaintTarget } from './lib/browser/first-paint.ts'
import { appBaseUrl } from './lib/config/build-info.ts'
import { loadRuntimeConfig, readInlineRuntimeConfig } from './lib/config/runtime-config.ts'
import { createRandomState } from './lib/services/services.ts'
import { scheduleSupportingServices } from './lib/monitoring/schedule-services.ts'
import { createToasts } from './lib/toasts/toasts.ts'
import { ROTATION_CHANNEL_NAME } from './session/constants.ts'
import { createSha256Hex } from './session/cross-tab.ts'
import { createSessionValues, getSessionStorage } from './session/token-storage.ts'
import './app/app.css'

async function boot() {
  const fetch = (request: Request) => window.fetch(request)
  // Written into the page by the mock server; fetched from beside index.html on a static host.
  const config =
    readInlineRuntimeConfig(document, window.location.origin) ??
    (await loadRuntimeConfig(fetch, new URL('config.json', appBaseUrl(window.location.origin)).href))
  const storage = getSessionStorage()
  const router = createAppRouter()
  // The page's one first paint, its toasts and its lazy chunks: made here, handed to whoever needs them.
  const afterFirstPaint = createFirstPaint(window as unknown as FirstPaintTarget)
  const toasts = createToasts()
  const chunks = createChunkLoads({
    reloadForFailedChunk: createChunkReload({
      guard: createSessionValues(storage).reloadGuard,
      now: () => Date.now(),
      getPath: () => window.location.pathname,
      reload: () => window.location.reload(),
      online: () => navigator.onLine,
    }),
  })
  const { store, services } = createApp({
    config,
    origin: window.location.origin,
    // The API's calls wait for the first paint, so nothing but the screen comes before it (lib/browser/first-paint.ts).
    fetch: (request) => afterFirstPaint().then(() => fetch(request)),
    storage,
    clock: Date,
    timers: {
      setInterval: (fn, ms) => window.setInterval(fn, ms),
      clearInterval: (id) => window.clearInterval(id as number),
    },
    navigate: (to, options) => void router.navigate(to, options),
    toasts,
    chunks,
    afterFirstPaint,
    log: (message) => console.log(message),
    hash: createSha256Hex(window.crypto.subtle),
    locks: 'locks' in navigator ? navigator.locks : null,
    channel: typeof BroadcastChannel === 'function' ? new BroadcastChannel(ROTATION_CHANNEL_NAME) : null,
    randomState: () => createRandomState(window.crypto),
    assignLocation: (url) => window.location.assign(url),
    userAgent: navigator.userAgent,
  })
  // Leaving the page aborts the calls in flight. An aborted refresh must not clear the next page's tokens.
  // The aborts settle after pagehide's first listener, so this one is added first, in the capture phase.
  window.addEventListener(
    'pagehide',
    (event) => {
      if (!event.persisted) store.dispose()
    },
    { capture: true },
  )
  installTestHook(window, config, { api: services.api, session: store }) // mock mode only (README: The e2e suite)
  store.start()
  // The guard's answer for a tab holding no tokens, given before the first render (app/require-sign-in.tsx).
  const signIn = store.getSnapshot().hasTokens ? null : signInFirst(router.location)
  if (signIn) void router.navigate(signIn, { replace: true })
  const root = document.getElementById('root')
  if (!root) throw new Error('Failed to start the app: no #root element.')
  // The first render as a transition: React renders in slices of a few milliseconds and yields between them, so no
  // slice is a long task after the first paint (docs/decisions/012-first-load.md).
  startTransition(() =>
    createRoot(root).render(
      <StrictMode>
        <AppProviders store={store} services={services}>
          <AppRouterView router={router} />
        </AppProviders>
      </StrictMode>,
    ),
  )
  // The supporting services load late: at idle or first interaction
  // (docs/behaviour.md: Signed-in area; docs/decisions/012-first-load.md).
  scheduleSupportingServices(
    { config, store, errors: services.errors, router, toasts },
    { prefetch: [() => chunks.fetch(loadErrorPage)], after: afterFirstPaint() },
  )
}

void boot()
