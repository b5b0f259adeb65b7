// createApp(options): the Express host assembled, with no listen() (main.ts listens; tests use supertest).
// createReplayApp(options): the same host answering the product API from a recorded HAR (--replay).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import express, { type Express, type Request } from 'express'
import helmet from 'helmet'
import { createMockCore, type MockCore, type MockOptions } from './core.ts'
import { createApiHost } from './hosts/api-host.ts'
import { closeIfBodyUnread, createLastResort } from './hosts/express.ts'
import { createWebRouter, type WebHostOptions } from './hosts/web.ts'
import { forwardedProtocol } from './pipeline/forwarded-proto.ts'
import { createReplayCore, type ReplayCore, type ReplayOptions } from './har/replay-core.ts'
import { createBuildOperations } from './product/operations/build.ts'

/** helmet's default policy: a year, subdomains included. */
const HSTS = 'max-age=31536000; includeSubDomains'

export interface AppOptions extends MockOptions {
  /**
   * How many proxies in front of the server to trust (default 0: none). The client is the address that many
   * hops from the right of X-Forwarded-For, so entries a client writes itself are never taken; X-Forwarded-Proto
   * is read from the same hop (https detection).
   */
  trustProxyHops?: number
}

export interface MockApp extends Express {
  core: MockCore
}

export interface ReplayAppOptions extends ReplayOptions {
  /** As AppOptions' `trustProxyHops`. */
  trustProxyHops?: number
}

export interface ReplayApp extends Express {
  replay: ReplayCore
}

/** Express's own entry point, which the app function and app.listen() call. */
interface Handler {
  handle(request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void): void
}

/** The headers a middleware that only sets headers (helmet with a fixed policy) gives every answer, names lower-cased. */
function headersOf(
  middleware: (request: IncomingMessage, response: ServerResponse, next: (error?: unknown) => void) => void,
): Record<string, string> {
  const headers: Record<string, string> = {}
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  }
  let done = false
  middleware({ headers: {} } as IncomingMessage, recorder as unknown as ServerResponse, () => (done = true))
  if (!done) throw new Error('Failed to read the security headers: the middleware did not finish at once.')
  return headers
}

export function createApp(options: AppOptions = {}): MockApp {
  const core = createMockCore(options)
  const web = options.webRoot
    ? { root: options.webRoot, production: core.production, externalSignIn: core.externalSignIn }
    : undefined
  const app = createHost(core, { ...options, web }) as MockApp
  app.core = core
  return app
}

/** The product API answered from a recorded HAR (har/replay-core.ts), beside the web app as createApp serves it. */
export function createReplayApp(options: ReplayAppOptions): ReplayApp {
  const build = { ...(options.webRoot && { webRoot: options.webRoot }), override: null }
  const replay = createReplayCore(options, { builds: createBuildOperations({ build }) })
  const web = options.webRoot ? { root: options.webRoot, production: false, replay: true } : undefined
  const app = createHost(replay, { ...options, web }) as ReplayApp
  app.replay = replay
  return app
}

interface HostOptions {
  trustProxyHops?: number | undefined
  logError?: ((line: string) => void) | undefined
  web: WebHostOptions | undefined
}

/** Express with the security headers, the dispatcher's calls answered in front of it, the web app, and the 404. */
function createHost(dispatcher: Pick<MockCore, 'dispatch'>, options: HostOptions): Express {
  const app = express()
  app.disable('x-powered-by')
  const hops = options.trustProxyHops ?? 0
  app.set('trust proxy', hops)
  // Express reads the left-most X-Forwarded-Proto, which the client writes: take the trusted hop's entry instead
  // (request.secure follows request.protocol).
  Object.defineProperty(app.request, 'protocol', {
    configurable: true,
    enumerable: true,
    get(this: Request) {
      const direct = (this.socket as TLSSocket).encrypted ? 'https' : 'http'
      return forwardedProtocol(this.get('x-forwarded-proto'), hops, direct)
    },
  })
  // Over plain http on 127.0.0.1 an upgrade-insecure-requests directive would send the app's own
  // requests to an https port nobody listens on; a deployment behind https gets HSTS instead.
  // The session recorder starts its worker from a blob: URL; nothing else may.
  const securityHeaders = helmet({
    contentSecurityPolicy: {
      directives: { upgradeInsecureRequests: null, workerSrc: ["'self'", 'blob:'] },
    },
    strictTransportSecurity: false,
  })
  app.use(securityHeaders)
  // HSTS means something only over https (RFC 6797 section 7.2: not over plain http).
  app.use((request, response, next) => {
    if (request.secure) response.setHeader('strict-transport-security', HSTS)
    next()
  })
  // The documents' calls are answered before Express (hosts/api-host.ts), with the headers the middleware above
  // gives every answer; anything else goes on through Express.
  const api = createApiHost(dispatcher, {
    hops,
    baseHeaders: headersOf(securityHeaders),
    secureHeaders: { 'strict-transport-security': HSTS },
    logError: options.logError,
  })
  const handle = (app as unknown as Handler).handle.bind(app)
  ;(app as unknown as Handler).handle = (request, response, next) =>
    api(request, response, () => handle(request, response, next))
  if (options.web) app.use(createWebRouter(options.web))
  app.use((_request, response) => {
    closeIfBodyUnread(response)
    response.status(404).type('application/json').set('cache-control', 'no-store')
    response.send(JSON.stringify({ error: 'not_found', message: 'Nothing here.' }))
  })
  app.use(createLastResort(options.logError))
  return app
}
