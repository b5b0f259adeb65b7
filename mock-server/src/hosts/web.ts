// Serves the built web app for what the pipeline does not answer: hashed assets cached for good, index.html for
// other page paths (the SPA decides what is a 404), and config.json (web-page.ts). Paths match as Express matched
// them, so the rules read as they did.
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join } from 'node:path'
import serveStatic from 'serve-static'
import { sendError } from './answers.ts'
import type { WebFiles } from './node-host.ts'
import { sendPrecompressed } from './precompressed.ts'
import { decodeStaticPath, encodeStaticPath } from './static-path.ts'
import { createPageSender, type TokenLifetimesMs } from './web-page.ts'

export { withInlineConfig } from './web-page.ts'

export interface WebHostOptions {
  /** The built app (web/dist). */
  root: string
  /** Production mode: config.json says `mock: false`. */
  production: boolean
  /** Whether this server has an identity provider: config.json's `externalSignIn` (default true). */
  externalSignIn?: boolean
  /** The lifetimes the server issues tokens with: config.json's `tokenLifetimes` (none: left out). */
  lifetimes?: TokenLifetimesMs
  /**
   * A replay (--replay): config.json says `mock: false` and names no sinks, since neither the QA panel's controls nor
   * the sinks are there; source maps are served as in development.
   */
  replay?: boolean
}

const NOT_PAGES = /^\/(api|__mock|idp)(\/|$)/
const ASSETS = '/assets'
/** Hashed assets (`immutable`, a year) and the other files (`max-age=0`), as the static sender states them. */
const IMMUTABLE = { 'cache-control': 'public, max-age=31536000, immutable' }
const REVALIDATE = { 'cache-control': 'public, max-age=0' }

type Next = (error?: unknown) => void

/** A route matched as Express's router did: case-insensitive, with or without a trailing slash. */
const isRoute = (path: string, route: string) => {
  const lower = path.toLowerCase()
  return lower === route || lower === `${route}/`
}
const isUnder = (path: string, mount: string) => {
  const lower = path.toLowerCase()
  return lower === mount || lower.startsWith(`${mount}/`)
}

export function createWebFiles({
  root,
  production,
  externalSignIn = true,
  lifetimes,
  replay = false,
}: WebHostOptions): WebFiles {
  const mock = !production && !replay
  const { sendConfig, sendPage } = createPageSender({ root, mock, externalSignIn, lifetimes })
  const assets = createAssets(join(root, 'assets'))
  const files = serveStatic(root, { index: false, maxAge: 0 })
  return (request, response, next) => {
    const url = request.url ?? '/'
    const query = url.indexOf('?')
    // Every rule below, and the file system, read one path: decoded once, normalized, written back canonically.
    const decoded = decodeStaticPath(query === -1 ? url : url.slice(0, query))
    if (decoded === null) return sendError(response, 400, 'bad_request', 'The path could not be read.')
    const path = encodeStaticPath(decoded)
    // A directory's redirect is written from the address the client asked for.
    Object.assign(request, { originalUrl: url, url: path + (query === -1 ? '' : url.slice(query)) })
    const readable = request.method === 'GET' || request.method === 'HEAD'
    if (readable && isRoute(path, '/config.json')) return sendConfig(request, response)
    if (readable && isRoute(path, '/index.html')) return sendPage(request, response)
    // Source maps would publish the app's source: served while developing, never in production mode.
    if (production && path.endsWith('.map')) return sendError(response, 404, 'not_found', 'Nothing here.')
    if (isUnder(path, ASSETS)) return assets(request, response, path.slice(ASSETS.length) || '/', next)
    // A file with compressed copies (npm run build writes them) goes out compressed; one without, as it is.
    if (readable && sendPrecompressed(request, response, root, path, REVALIDATE)) return
    files(request, response, (error?: unknown) => {
      if (error !== undefined) return next(error)
      if (request.method === 'OPTIONS' && (isRoute(path, '/config.json') || isRoute(path, '/index.html')))
        return sendAllowed(response)
      if (!readable || NOT_PAGES.test(path)) return next()
      // The app's pages have no file extension: a missing /robots.txt or /logo.png is a 404, not the page.
      if (extname(path) !== '') return sendError(response, 404, 'not_found', 'There is no such file.')
      sendPage(request, response)
    })
  }
}

/** OPTIONS of a path only read: what may be asked of it, in plain text (as Express's router answered it). */
function sendAllowed(response: ServerResponse): void {
  const allow = 'GET, HEAD'
  response.setHeader('allow', allow)
  response.setHeader('content-length', String(Buffer.byteLength(allow)))
  response.setHeader('content-type', 'text/plain')
  response.end(allow)
}

/** /assets: read, never written; every file there or a 404 `not_found`, never the page. */
function createAssets(dir: string) {
  const files = serveStatic(dir, { immutable: true, maxAge: '1y', index: false, fallthrough: false })
  return (request: IncomingMessage, response: ServerResponse, path: string, next: Next) => {
    // A 405 in the documented shape, closing a connection whose body is unread.
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return sendError(response, 405, 'method_not_allowed', 'Use GET or HEAD for assets.', {
        allow: 'GET, HEAD',
      })
    }
    if (sendPrecompressed(request, response, dir, path, IMMUTABLE)) return
    // The static sender reads the path under the folder, as a router mounted at /assets handed it on.
    const url = request.url!
    const query = url.indexOf('?')
    request.url = path + (query === -1 ? '' : url.slice(query))
    files(request, response, next)
  }
}
