// The HTTP server around the Express app, with the limits that keep one slow or greedy client from holding
// the server: time for the headers, time for the whole request, and a cap on open connections.
import { createServer, type RequestListener, type Server } from 'node:http'
import {
  CONNECTION_CHECK_INTERVAL_MS,
  HEADERS_TIMEOUT_MS,
  MAX_CONNECTIONS,
  REQUEST_TIMEOUT_MS,
} from '../constants.ts'

export interface ServerLimits {
  /** A request whose headers are not all in by then is answered 408 and its connection closed. */
  headersTimeoutMs: number
  /** Likewise for the whole request, body included. */
  requestTimeoutMs: number
  /** Connections past this many are closed as they arrive. */
  maxConnections: number
  /** How often Node looks for requests past their time (its default, 30 s, would add up to 30 s to each limit). */
  checkIntervalMs: number
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  headersTimeoutMs: HEADERS_TIMEOUT_MS,
  requestTimeoutMs: REQUEST_TIMEOUT_MS,
  maxConnections: MAX_CONNECTIONS,
  checkIntervalMs: CONNECTION_CHECK_INTERVAL_MS,
}

/**
 * @example
 * const server = createHttpServer(createApp(), { ...DEFAULT_SERVER_LIMITS, maxConnections: 64 })
 * server.listen(0, '127.0.0.1')
 */
export function createHttpServer(app: RequestListener, limits: Partial<ServerLimits> = {}): Server {
  const { headersTimeoutMs, requestTimeoutMs, maxConnections, checkIntervalMs } = {
    ...DEFAULT_SERVER_LIMITS,
    ...limits,
  }
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      connectionsCheckingInterval: checkIntervalMs,
    },
    app,
  )
  server.maxConnections = maxConnections
  return server
}
