// Serves the built web app beside the API: hashed assets cached for good, index.html for every other
// page path (the SPA decides what is a 404), with the runtime configuration written in, and config.json with `mock`
// and `externalSignIn` set by the server.
import { existsSync, readFileSync } from 'node:fs'
import { extname, join } from 'node:path'
import express, { type Router } from 'express'
import { encodeBody } from './compress.ts'
import { sendError } from './express.ts'
import { sendPrecompressed } from './precompressed.ts'
import { decodeStaticPath, encodeStaticPath } from './static-path.ts'

export interface WebHostOptions {
  /** The built app (web/dist). */
  root: string
  /** Production mode: config.json says `mock: false`. */
  production: boolean
  /** Whether this server has an identity provider: config.json's `externalSignIn` (default true). */
  externalSignIn?: boolean
  /**
   * A replay (--replay): config.json says `mock: false` and names no sinks, since neither the QA panel's controls nor
   * the sinks are there; source maps are served as in development.
   */
  replay?: boolean
}

const NOT_PAGES = /^\/(api|__mock|idp)(\/|$)/
/** What express.static sends for hashed assets (`immutable`, a year) and for the other files (`max-age=0`). */
const IMMUTABLE = { 'cache-control': 'public, max-age=31536000, immutable' }
const REVALIDATE = { 'cache-control': 'public, max-age=0' }

/** The file's fields; nothing from a file that is not a JSON object (missing, unreadable, `null`, an array, a string). */
function readConfig(root: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(root, 'config.json'), 'utf8'))
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}

/** The data block the app reads its runtime configuration from (web/src/lib/config/runtime-config.ts). */
export const INLINE_CONFIG_ID = 'runtime-config'
const CONFIG_PRELOAD = /<link rel="preload" href="[^"]*config\.json"[^>]*>/

/**
 * index.html with the runtime configuration written in, as a JSON data block in place of the page's preload of
 * config.json (docs/decisions/012-first-load.md): a request fewer before the first paint. `<` is escaped, so no value
 * can close the block. The built file on a static host keeps the preload and is read as before.
 */
export function withInlineConfig(html: string, json: string): string {
  const block = `<script type="application/json" id="${INLINE_CONFIG_ID}">${json.replace(/</g, '\\u003c')}</script>`
  return CONFIG_PRELOAD.test(html)
    ? html.replace(CONFIG_PRELOAD, block)
    : html.replace('</body>', `${block}</body>`)
}

export function createWebRouter({
  root,
  production,
  externalSignIn = true,
  replay = false,
}: WebHostOptions): Router {
  const mock = !production && !replay
  const router = express.Router()
  const index = join(root, 'index.html')
  // Every rule below, and the file system, read one path: decoded once, normalized, written back canonically.
  router.use((request, response, next) => {
    const query = request.url.indexOf('?')
    const path = decodeStaticPath(query === -1 ? request.url : request.url.slice(0, query))
    if (path === null) return sendError(response, 400, 'bad_request', 'The path could not be read.')
    request.url = encodeStaticPath(path) + (query === -1 ? '' : request.url.slice(query))
    next()
  })
  const configJson = () => {
    // In mock mode the supporting services report to the mock server's own sinks unless the file says otherwise.
    // The request's `Host` is never echoed (a cache or a re-bound name would hand it to others): the app fills
    // the placeholders from its own address (web/src/lib/config/runtime-config.ts).
    const sinks = !mock
      ? {}
      : {
          sentryDsn: '{protocol}//mock@{host}/1',
          recorder: { projectKey: 'mock-project', host: '{origin}' },
        }
    const file = Object.fromEntries(Object.entries(readConfig(root)).filter(([, value]) => value !== null))
    // What only the server knows wins over the file: its mode, and whether external sign-in can work here.
    return JSON.stringify({ ...sinks, ...file, mock, externalSignIn })
  }
  router.get('/config.json', (request, response) => {
    const json = configJson()
    // Compressed as the API's answers are, past the same size (hosts/compress.ts).
    const { body, headers } = encodeBody(request.headers['accept-encoding'], request.method, json, undefined)
    response.set({
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    })
    response.end(body)
  })
  // The app's page, with the runtime configuration written in, so it asks for no config.json before its first paint.
  // A HEAD gets the headers the GET would (its encoding and length), without the body.
  const sendPage = (request: express.Request, response: express.Response) => {
    if (!existsSync(index)) {
      response
        .status(503)
        .type('text/plain')
        .send('The web app is not built yet: run npm run build (npm start does).')
      return
    }
    const html = withInlineConfig(readFileSync(index, 'utf8'), configJson())
    const { body = '', headers } = encodeBody(request.headers['accept-encoding'], 'GET', html, undefined)
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength
    response.set({
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-length': String(length),
      ...headers,
    })
    response.end(request.method === 'HEAD' ? undefined : body)
  }
  router.get('/index.html', sendPage)
  // Source maps would publish the app's source: served while developing, never in production mode.
  if (production) {
    router.use((request, response, next) => {
      if (!request.path.endsWith('.map')) return next()
      sendError(response, 404, 'not_found', 'Nothing here.')
    })
  }
  // Assets are read, never written: a 405 in the documented shape, closing a connection whose body is unread.
  router.use('/assets', (request, response, next) => {
    if (request.method === 'GET' || request.method === 'HEAD') return next()
    sendError(response, 405, 'method_not_allowed', 'Use GET or HEAD for assets.', { allow: 'GET, HEAD' })
  })
  // A file with compressed copies (npm run build writes them) goes out compressed; one without, as it is.
  router.use('/assets', (request, response, next) => {
    if (!sendPrecompressed(request, response, join(root, 'assets'), request.path, IMMUTABLE)) next()
  })
  router.use(
    '/assets',
    express.static(join(root, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: false }),
  )
  router.use((request, response, next) => {
    const readable = request.method === 'GET' || request.method === 'HEAD'
    if (!readable || !sendPrecompressed(request, response, root, request.path, REVALIDATE)) next()
  })
  router.use(express.static(root, { index: false, maxAge: 0 }))
  router.use((request, response, next) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || NOT_PAGES.test(request.path)) return next()
    // The app's pages have no file extension: a missing /robots.txt or /logo.png is a 404, not the page.
    if (extname(request.path) !== '') return sendError(response, 404, 'not_found', 'There is no such file.')
    sendPage(request, response)
  })
  return router
}
