// The demo's entry (npm run build:demo; README: A demo with no server): Node's Buffer for the mock server's
// modules, then the mock server in a service worker, then the app as web/src/main.tsx boots it. The app's first
// call (config.json's preload aside) waits for the worker, so nothing reaches the static host that the worker
// should answer.
import { installBuffer } from '#mock-server/browser/buffer.ts'

installBuffer(globalThis)

async function start(): Promise<void> {
  // Loaded after the global exists: the mock server's modules use Buffer as they load (shared/crypto.ts).
  const { startDemoWorker } = await import('./start-worker.ts')
  await startDemoWorker(window.location.origin, import.meta.env.BASE_URL)
  await import('../web/src/main.tsx')
}

void start()
