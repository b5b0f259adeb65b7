/**
 * The initial JavaScript of /login, measured as a visitor gets it in Chromium (docs/decisions/012-first-load.md).
 * A bare React + react-router app is measured beside it, to compare with the budgets.
 * `tsx scripts/bench-bundle.ts` alone; `benchBundle()` returns the printable lines.
 */
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { chromium } from '@playwright/test'
import react from '@vitejs/plugin-react'
import { build } from 'vite'
import { CHROMIUM_ARGS, ensureChromium } from '#harness/chromium.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const cache = join(root, 'node_modules/.cache/bench-bundle')
export const BUDGET_GZIP_BYTES = 106_000
export const BUDGET_RATIO = 1.03

export interface Measured {
  files: { path: string; raw: number; gzip: number; brotli: number }[]
  raw: number
  gzip: number
  brotli: number
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain',
}

const TEXT = /^text\/|^application\/json$/

/**
 * A static server for a build, with the SPA fallback. `compress` sends brotli as the mock server does,
 * so page loads compare with the app's (scripts/lighthouse.ts).
 */
export function serve(dir: string, { compress = false } = {}): Promise<Server> {
  const compressed = new Map<string, Buffer>()
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname))
    let file = join(dir, path)
    const isFile = (candidate: string) =>
      candidate.startsWith(dir) && statSync(candidate, { throwIfNoEntry: false })?.isFile()
    if (!isFile(file)) {
      if (path.startsWith('/api/') || extname(path) !== '') return void response.writeHead(404).end()
      file = join(dir, 'index.html')
    }
    const type = TYPES[extname(file)] ?? 'application/octet-stream'
    const brotli = compress && TEXT.test(type) && /\bbr\b/.test(String(request.headers['accept-encoding']))
    if (!brotli) return void response.writeHead(200, { 'content-type': type }).end(readFileSync(file))
    let body = compressed.get(file)
    if (!body) {
      body = brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
      compressed.set(file, body)
    }
    response.writeHead(200, { 'content-type': type, 'content-encoding': 'br', vary: 'Accept-Encoding' })
    response.end(body)
  })
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)))
}

/** The scripts Chromium requests for `path` until `ready` is on screen. */
export async function measureInitialJs(
  dir: string,
  path: string,
  ready: string,
  executablePath: string,
): Promise<Measured> {
  const server = await serve(dir)
  const browser = await chromium.launch({
    executablePath,
    args: CHROMIUM_ARGS,
  })
  try {
    const page = await browser.newPage()
    // The moment `ready` appears, taken in the page, so later scripts are not counted.
    // A string, since tsx would wrap a function's inner functions in a helper the page lacks.
    await page.addInitScript(`{
      const observer = new MutationObserver(() => {
        if (document.querySelector(${JSON.stringify(ready)}) === null) return
        window.__readyAt = performance.now()
        observer.disconnect()
      })
      observer.observe(document, { childList: true, subtree: true })
    }`)
    const { port } = server.address() as AddressInfo
    await page.goto(`http://127.0.0.1:${port}${path}`, { waitUntil: 'load' })
    await page.waitForFunction(() => '__readyAt' in window)
    const entries = await page.evaluate(() => ({
      readyAt: (window as unknown as { __readyAt: number }).__readyAt,
      resources: performance.getEntriesByType('resource').map(({ name, startTime }) => ({ name, startTime })),
    }))
    const scripts = entries.resources
      .filter((entry) => entry.startTime <= entries.readyAt)
      .map((entry) => new URL(entry.name).pathname)
      .filter((pathname) => pathname.endsWith('.js'))
    const files = [...new Set(scripts)].sort().map((script) => {
      const bytes = readFileSync(join(dir, script))
      return {
        path: script,
        raw: bytes.length,
        gzip: gzipSync(bytes, { level: 9 }).length,
        brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      }
    })
    const sum = (key: 'raw' | 'gzip' | 'brotli') => files.reduce((total, file) => total + file[key], 0)
    return { files, raw: sum('raw'), gzip: sum('gzip'), brotli: sum('brotli') }
  } finally {
    await browser.close()
    server.close()
  }
}

const BARE_MAIN = `import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createBrowserRouter, Link, Outlet, RouterProvider } from 'react-router-dom'

function Layout() {
  return (<main><nav><Link to="/">Home</Link> <Link to="/login">Sign in</Link></nav><Outlet /></main>)
}
const router = createBrowserRouter([
  { element: <Layout />, children: [
    { path: '/', element: <h1>Home</h1> },
    { path: '/login', element: <form><h1>Sign in</h1><button type="submit">Sign in</button></form> },
  ] },
])
createRoot(document.getElementById('root')).render(<StrictMode><RouterProvider router={router} /></StrictMode>)
`
const BARE_HTML = `<!doctype html><html lang="en"><head><meta charset="UTF-8" /><title>bare</title></head>
<body><div id="root"></div><script type="module" src="/main.jsx"></script></body></html>
`

/** Builds the bare React + react-router app; returns its output folder. */
export async function buildBare(): Promise<string> {
  const dir = join(cache, 'bare')
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'main.jsx'), BARE_MAIN)
  writeFileSync(join(dir, 'index.html'), BARE_HTML)
  await build({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: join(dir, 'dist'), emptyOutDir: true },
  })
  return join(dir, 'dist')
}

/** A fresh production build of the app, outside web/dist. */
async function buildApp(): Promise<string> {
  const outDir = join(cache, 'app')
  await build({
    configFile: join(root, 'web/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  })
  return outDir
}

const kb = (bytes: number) => `${bytes.toLocaleString('en-US')} B`.padStart(11)

export async function benchBundle(): Promise<string[]> {
  const chromium = ensureChromium('full')
  const app = await measureInitialJs(await buildApp(), '/login', 'form button[type="submit"]', chromium)
  const bare = await measureInitialJs(await buildBare(), '/login', 'form button[type="submit"]', chromium)
  const ratio = app.gzip / bare.gzip
  const row = (label: string, m: Measured) =>
    `${label.padEnd(28)} ${String(m.files.length).padStart(2)} files  raw ${kb(m.raw)}  gzip ${kb(m.gzip)}  brotli ${kb(m.brotli)}`
  return [
    'Initial JS of /login (every script Chromium requests before the sign-in form is on screen)',
    row('  auth-shell', app),
    ...app.files.map((file) => `      ${file.path.padEnd(40)} raw ${kb(file.raw)}  gzip ${kb(file.gzip)}`),
    row('  bare React + react-router', bare),
    `  ratio (gzip) ${ratio.toFixed(3)}x bare  budget <= ${BUDGET_RATIO}x: ${ratio <= BUDGET_RATIO ? 'met' : 'NOT met'}`,
    `  gzip ${app.gzip.toLocaleString('en-US')} B  budget <= ${BUDGET_GZIP_BYTES.toLocaleString('en-US')} B: ${app.gzip <= BUDGET_GZIP_BYTES ? 'met' : 'NOT met'}`,
  ]
}

if (process.argv[1] && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  for (const line of await benchBundle()) console.log(line)
}
