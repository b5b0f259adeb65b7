// Vite for the web app: root web/, output web/dist. `npm run dev` proxies the API, the mock control surface and
// the mock identity provider to the mock server (MOCK_PORT, default 4010). A build writes its build manifest
// (builds/latest.json, builds/meta/<id>.json) for the app's new-version check (docs/behaviour.md: Session, Calls) and gives the app the
// same id (`__BUILD_ID__`).
import { createHash, randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
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

/** Text files worth compressing; config.json and the build manifests are answered by the server itself. */
const COMPRESSIBLE = /\.(js|css|html|svg|txt|ico|json)$/
const SERVED_BY_THE_SERVER = /^(config\.json|builds\/)/

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? listFiles(path) : [path]
  })
}

/**
 * The e2e suite's build (E2E_BUILD=1): brotli quality 5 and no source maps, saving about 5 s CPU.
 * No e2e test reads either (docs/decisions/015-suite-speed.md). Every other build is as deployed.
 */
const E2E_BUILD = process.env.E2E_BUILD === '1'
const BROTLI_QUALITY = E2E_BUILD ? 5 : 11

/**
 * Writes `.br` and `.gz` copies beside every text file of the output, so the server never compresses per answer
 * (mock-server/src/hosts/precompressed.ts). A copy no smaller than the file is not written.
 */
function precompress(): Plugin {
  let outDir = ''
  return {
    name: 'auth-shell:precompress',
    apply: 'build',
    configResolved: (config) => void (outDir = resolve(config.root, config.build.outDir)),
    closeBundle() {
      for (const file of listFiles(outDir)) {
        const name = relative(outDir, file).split('\\').join('/')
        if (!COMPRESSIBLE.test(name) || SERVED_BY_THE_SERVER.test(name)) continue
        const bytes = readFileSync(file)
        const copies = {
          br: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }),
          gz: gzipSync(bytes, { level: 9 }),
        }
        for (const [suffix, copy] of Object.entries(copies))
          if (copy.length < bytes.length) writeFileSync(`${file}.${suffix}`, copy)
      }
    },
  }
}

/**
 * The first page carries what its first paint needs (docs/decisions/012-first-load.md): the entry's stylesheet
 * inlined, and the icon as a `data:` URL. That is two requests fewer before the first paint.
 * The stylesheet file stays in the output, since lazy chunks still name it for Vite's preload helper.
 */
function inlineFirstLoad(): Plugin {
  return {
    name: 'auth-shell:inline-first-load',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const withStyles = html.replace(
          /<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g,
          (link, href: string) => {
            const file = Object.keys(bundle ?? {}).find((name) => href.endsWith(`/${name}`))
            const asset = file === undefined ? undefined : bundle?.[file]
            if (file === undefined || asset?.type !== 'asset') return link
            const css = String(asset.source).trim()
            // For a host whose Content-Security-Policy names styles by hash (README: Deploying).
            const hash = createHash('sha256').update(css).digest('base64')
            console.log(`index.html's inline style: 'sha256-${hash}'`)
            return `<style>${css}</style>`
          },
        )
        const icon = readFileSync(join(root, 'public/favicon.ico')).toString('base64')
        return withStyles.replace(
          /(<link rel="icon"[^>]*href=")[^"]*favicon\.ico(")/,
          `$1data:image/x-icon;base64,${icon}$2`,
        )
      },
    },
  }
}

export default defineConfig({
  root,
  plugins: [react(), buildManifest(), inlineFirstLoad(), precompress()],
  define: {
    // The error-reporting DSN's fallback when config.json names none (docs/behaviour.md: Constants); unset, reporting stays off.
    __SENTRY_DSN_FALLBACK__: JSON.stringify(process.env.SENTRY_DSN ?? null),
    // The error reporter's SDK without its debug logging, never used in a build. Tracing stays: the app samples
    // every trace (docs/behaviour.md: Constants; docs/decisions/012-first-load.md).
    __SENTRY_DEBUG__: 'false',
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: !E2E_BUILD,
    // Every browser the build targets has <link rel="modulepreload">: the polyfill would be dead weight in the entry.
    modulePreload: { polyfill: false },
  },
  server: {
    proxy: {
      '/api': { target: mock, changeOrigin: false },
      '/__mock': { target: mock, changeOrigin: false },
      '/idp': { target: mock, changeOrigin: false },
    },
  },
})
