// createApp(options): the one host assembled, with no listen() (main.ts listens; tests use supertest).
// createReplayApp(options): the same host answering the product API from a recorded HAR (--replay).
import { createServer, type RequestListener, type Server } from 'node:http'
import { createMockCore, type MockCore, type MockOptions } from './core.ts'
import type { InFlight } from './hosts/in-flight.ts'
import { createNodeHost } from './hosts/node-host.ts'
import { NODE_PORTS, readBuildFile } from './compose/node-ports.ts'
import { createWebFiles, type WebHostOptions } from './hosts/web.ts'
import { createReplayCore, type ReplayCore, type ReplayOptions } from './har/replay-core.ts'
import { createBuildOperations } from './product/operations/build.ts'
import { createHealth } from './health/index.ts'

export interface AppOptions extends MockOptions {
  /**
   * How many proxies in front of the server to trust (default 0). The client is read that many hops from the right
   * of X-Forwarded-For, so entries a client writes itself are never taken; X-Forwarded-Proto comes from the same hop.
   */
  trustProxyHops?: number
}

/** A `node:http` request listener (for `createServer`, supertest), with `listen` as a plain server gives it. */
export interface Host extends RequestListener {
  listen(port: number, hostname?: string, onListening?: () => void): Server
  /** The calls still being dispatched (hosts/in-flight.ts): a stop waits for them. */
  inFlight: InFlight
}

export interface MockApp extends Host {
  core: MockCore
}

export interface ReplayAppOptions extends ReplayOptions {
  /** As AppOptions' `trustProxyHops`. */
  trustProxyHops?: number
}

export interface ReplayApp extends Host {
  replay: ReplayCore
  /** Readiness answers 503 from now on (main.ts, on SIGTERM). */
  beginShutdown(): void
}

export function createApp(options: AppOptions = {}): MockApp {
  const core = createMockCore({ ...NODE_PORTS, ...options })
  const { accessTokenTtlMs, refreshTokenTtlMs } = core.ops.domain.config
  const web = options.webRoot
    ? {
        root: options.webRoot,
        production: core.production,
        externalSignIn: core.externalSignIn,
        lifetimes: { accessTokenTtlMs, refreshTokenTtlMs },
      }
    : undefined
  const app = createHost(core, { ...options, web }) as MockApp
  app.core = core
  return app
}

/** The product API answered from a recorded HAR (har/replay-core.ts), beside the web app as createApp serves it. */
export function createReplayApp(options: ReplayAppOptions): ReplayApp {
  const build = { ...(options.webRoot && { webRoot: options.webRoot }), readBuildFile, override: null }
  const health = createHealth()
  const replay = createReplayCore(options, {
    builds: createBuildOperations({ build }),
    health: health.operations,
  })
  const web = options.webRoot ? { root: options.webRoot, production: false, replay: true } : undefined
  const app = createHost(replay, { ...options, web }) as ReplayApp
  app.replay = replay
  app.beginShutdown = health.beginShutdown
  return app
}

interface HostOptions {
  trustProxyHops?: number | undefined
  logError?: ((line: string) => void) | undefined
  web: WebHostOptions | undefined
}

/** One way in (hosts/node-host.ts): the dispatcher's calls, then the web app's files, then the 404. */
function createHost(dispatcher: Pick<MockCore, 'dispatch'>, options: HostOptions): Host {
  // Looked up at each call, as a test may stand in for the dispatcher.
  const listener = createNodeHost((request) => dispatcher.dispatch(request), {
    hops: options.trustProxyHops ?? 0,
    web: options.web && createWebFiles(options.web),
    logError: options.logError,
  })
  return Object.assign(listener, {
    listen: (port: number, hostname?: string, onListening?: () => void) =>
      createServer(listener).listen(port, hostname, onListening),
  })
}
