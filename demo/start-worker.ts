// The demo's backend: the mock server's operation table behind MSW's service worker (mock-server/src/hosts/msw.ts),
// answering /api and /__mock at the page's own origin. The worker only forwards each call to this page, where the
// handlers run, so the state (accounts, mailbox, clock, scenarios) lives in the page's memory and a reload starts
// from the seed (docs/decisions/021-serverless-demo.md). Anything else (the app's files, config.json) goes to the
// static host.
import { setupWorker } from 'msw/browser'
import { createMswHandlers } from '#mock-server/hosts/msw.ts'
import type { MockCore } from '#mock-server/core.ts'

/** Where the worker script is: `mockServiceWorker.js` at the build's base, so its scope covers every route. */
export function workerUrl(base: string): string {
  return `${base.endsWith('/') ? base : `${base}/`}mockServiceWorker.js`
}

export async function startDemoWorker(origin: string, base: string): Promise<MockCore> {
  const { handlers, core } = createMswHandlers({ baseUrl: origin })
  const worker = setupWorker(...handlers)
  await worker.start({
    serviceWorker: { url: workerUrl(base) },
    onUnhandledRequest: 'bypass',
    quiet: true,
  })
  await core.ready
  return core
}
