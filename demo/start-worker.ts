// The demo's backend: the mock server behind MSW's service worker (mock-server/src/hosts/msw.ts).
// The handlers run in this page, so the state lives in its memory and a reload starts from the seed
// (docs/decisions/021-serverless-demo.md).
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
