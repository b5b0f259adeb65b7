// Vite for the demo with no server (npm run build:demo; README: A demo with no server;
// docs/decisions/021-serverless-demo.md): the web app with the mock server in an MSW service worker, as plain
// files in dist/demo/. Unlike web/vite.config.ts, its entry is demo/main.ts, Node modules resolve to browser
// stand-ins (mock-server/src/browser/, mock-server/src/compose/node-ports.ts), and what the compiled server
// makes at build time is made here too (mock-server/src/build-time.ts, scripts/build-server.ts).
import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { hash } from '@node-rs/argon2'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { parse } from 'yaml'
import { ARGON2_PARAMS } from '../mock-server/src/shared/constants.ts'
import { SEED_ACCOUNTS } from '../mock-server/src/product/domain/seed.ts'
import type { BuildTime } from '../mock-server/src/shared/build-time.ts'
import { demoConfigJson } from './demo-config.ts'

const repository = fileURLToPath(new URL('..', import.meta.url))
/** The web app's page and public files are the demo's too; only the entry differs. */
const root = join(repository, 'web')
const browser = (file: string) => join(repository, 'mock-server/src/browser', file)

/** Where the demo is written; DEMO_OUT_DIR elsewhere (the e2e suite's cache). */
export const DEMO_OUT_DIR = resolve(repository, process.env.DEMO_OUT_DIR ?? 'dist/demo')

/** Node's modules the mock server imports, and the browser's stand-ins. */
export const BROWSER_MODULES: Record<string, string> = {
  'node:crypto': browser('node-crypto.ts'),
  'node:fs': browser('node-fs.ts'),
  '@node-rs/argon2': browser('argon2.ts'),
}

/** What the compiled server works out at build time, worked out the same way for the demo. */
async function buildTime(): Promise<BuildTime> {
  const params = { ...ARGON2_PARAMS, algorithm: 2 } // Algorithm.Argon2id
  const seedHashes: Record<string, string> = {}
  for (const account of SEED_ACCOUNTS) seedHashes[account.password] = await hash(account.password, params)
  const document = (file: string) =>
    parse(readFileSync(join(repository, file), 'utf8')) as Record<string, unknown>
  return {
    documents: { api: document('api/openapi.yaml'), control: document('api/control.openapi.yaml') },
    webDist: '',
    seedHashes,
    dummyHash: await hash(`dummy-${randomBytes(32).toString('base64url')}`, params),
  }
}

/** The demo's own files: the entry swapped in, config.json, the service worker and the 404 page. */
function demoFiles(): Plugin {
  let outDir = DEMO_OUT_DIR
  return {
    name: 'auth-shell:demo-files',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    // Before Vite reads the page's scripts, so the bundle starts from the demo's entry.
    transformIndexHtml: { order: 'pre', handler: (html) => html.replace('/src/main.tsx', '../demo/main.ts') },
    generateBundle() {
      this.emitFile({
        type: 'asset',
        fileName: 'mockServiceWorker.js',
        source: readFileSync(join(repository, 'node_modules/msw/lib/mockServiceWorker.js'), 'utf8'),
      })
    },
    // After public/ is copied, whose config.json is the deployed app's.
    closeBundle(error?: Error) {
      // A failed build wrote no index.html: let its own error be the one reported (rolldown does not always pass it).
      if (error || !existsSync(join(outDir, 'index.html'))) return
      writeFileSync(join(outDir, 'config.json'), demoConfigJson())
      writeFileSync(join(outDir, '404.html'), readFileSync(join(outDir, 'index.html')))
    },
  }
}

export default defineConfig(async () => ({
  root,
  base: process.env.DEMO_BASE ?? '/',
  plugins: [react(), demoFiles()],
  // Whole names only: an alias of `node:fs` must not take `node:fs/promises` for a path under it.
  resolve: {
    alias: Object.entries(BROWSER_MODULES).map(([name, file]) => ({
      find: new RegExp(`^${name.replace(/[/]/g, '\\/')}$`),
      replacement: file,
    })),
  },
  define: {
    __MOCK_SERVER_BUILD__: JSON.stringify(await buildTime()),
    __SENTRY_DSN_FALLBACK__: 'null',
    __SENTRY_DEBUG__: 'false',
  },
  build: {
    outDir: DEMO_OUT_DIR,
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: { polyfill: false },
    // The operation table's chunk carries both documents and their validators; it loads once, before the app.
    chunkSizeWarningLimit: 4096,
  },
}))
