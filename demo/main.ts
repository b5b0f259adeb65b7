// The demo's entry (npm run build:demo): Node's Buffer, the mock server in a service worker, then the app.
// The app's first call waits for the worker, so nothing meant for the worker reaches the static host.
import { installBuffer } from '#mock-server/browser/buffer.ts'

installBuffer(globalThis)

async function start(): Promise<void> {
  // Loaded after the global exists: the mock server's modules use Buffer as they load (shared/crypto.ts).
  const { startDemoWorker } = await import('./start-worker.ts')
  await startDemoWorker(window.location.origin, import.meta.env.BASE_URL)
  await import('../web/src/main.tsx')
}

void start()
