// Vite for the web app: root web/, output web/dist. `npm run dev` proxies the API, the mock control surface and
// the mock identity provider to the mock server (MOCK_PORT, default 4010). A build writes its build manifest
// (builds/latest.json, builds/meta/<id>.json) for the app's new-version check (docs/behaviour.md: Session, Calls) and gives the app the
// same id (`__BUILD_ID__`).
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'

const root = fileURLToPath(new URL('.', import.meta.url))
const mock = `http://127.0.0.1:${process.env.MOCK_PORT ?? 4010}`

/** A build id: when, then 4 random bytes; matches the manifest's id pattern (^[A-Za-z0-9_-]{1,64}$). */
export function createBuildId(now: number): string {
  return `${now.toString(36)}-${randomBytes(4).toString('hex')}`
}

/** Writes builds/latest.json and builds/meta/<id>.json into the output; the app gets the id through `define`. */
function buildManifest(): Plugin {
  const timestamp = Date.now()
  const id = createBuildId(timestamp)
  const manifest = `${JSON.stringify({ id, timestamp })}\n`
  return {
    name: 'auth-shell:build-manifest',
    apply: 'build',
    config: () => ({ define: { __BUILD_ID__: JSON.stringify(id) } }),
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'builds/latest.json', source: manifest })
      this.emitFile({ type: 'asset', fileName: `builds/meta/${id}.json`, source: manifest })
    },
  }
}

export default defineConfig({
  root,
  plugins: [react(), buildManifest()],
  define: {
    // The error-reporting DSN's fallback when config.json names none (docs/behaviour.md: Constants); unset, reporting stays off.
    __SENTRY_DSN_FALLBACK__: JSON.stringify(process.env.SENTRY_DSN ?? null),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
  server: {
    proxy: {
      '/api': { target: mock, changeOrigin: false },
      '/__mock': { target: mock, changeOrigin: false },
      '/idp': { target: mock, changeOrigin: false },
    },
  },
})
