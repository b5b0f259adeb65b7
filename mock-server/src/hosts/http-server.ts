// The HTTP server around the one host (app.ts), with the limits that keep one slow or greedy client from holding
// the server: time for the headers, time for the whole request, and a cap on open connections.
import {
  createServer,
  STATUS_CODES,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http'
import type { Duplex } from 'node:stream'
import {
  CONNECTION_CHECK_INTERVAL_MS,
  HEADERS_TIMEOUT_MS,
  KEEP_ALIVE_TIMEOUT_MS,
  MAX_CONNECTIONS,
  REQUEST_TIMEOUT_MS,
} from '../shared/constants.ts'
import { createBodyReader, type BodyReader } from './read-body.ts'

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
export function createHttpServer(
  app: RequestListener & { bodies?: BodyReader },
  limits: Partial<ServerLimits> = {},
): Server {
  const { headersTimeoutMs, requestTimeoutMs, maxConnections, checkIntervalMs } = {
    ...DEFAULT_SERVER_LIMITS,
    ...limits,
  }
  // Node answers an HTTP/1.1 request without Host with a bare, empty 400; this check gives it the usual body.
  const served: RequestListener = (request, response) =>
    lacksHost(request) ? answerAndClose(response, UNREADABLE) : app(request, response)
  // The host's body reader, told here what only the server sees; a listener that reads no body through one has none.
  const bodies = app.bodies ?? createBodyReader()
  /** Each connection's latest call: the one whose body a parse error after its head broke. */
  const latestCalls = new WeakMap<Duplex, { request: IncomingMessage; response: ServerResponse }>()
  const trackCall = (request: IncomingMessage, response: ServerResponse) =>
    void latestCalls.set(request.socket, { request, response })
  const server = createServer(
    {
      headersTimeout: headersTimeoutMs,
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: checkIntervalMs,
      requireHostHeader: false,
    },
    served,
  )
  server.maxConnections = maxConnections
  server.prependListener('request', trackCall)
  // Node would answer `Expect: 100-continue` itself, inviting every body before routing; the body's reader sends
  // `100 Continue` instead (hosts/read-body.ts), so an operation that takes no body never asks for one.
  server.on('checkContinue', (request, response) => {
    trackCall(request, response)
    bodies.deferContinue(request, response)
    served(request, response)
  })
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) =>
    answerClientError(error, socket, latestCalls.get(socket), bodies),
  )
  // Node answers an `Expect` other than 100-continue with a bare 417; this one has the usual body and headers.
  server.on('checkExpectation', (_request, response) =>
    answerAndClose(response, {
      status: 417,
      error: 'expectation_failed',
      message: 'Only Expect: 100-continue is understood.',
    }),
  )
  return server
}

/** What a request Node could not parse, or did not receive in time, is told: the usual error body. */
const CLIENT_ERRORS: Record<string, { status: number; error: string; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    error: 'request_timeout',
    message: 'The request did not arrive in time.',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    error: 'headers_too_large',
    message: 'The request headers are too large.',
  },
}
const UNREADABLE = { status: 400, error: 'bad_request', message: 'The request could not be read.' }

/** HTTP/1.1 requires a Host header (RFC 9112); HTTP/1.0 does not. */
function lacksHost(request: IncomingMessage): boolean {
  return request.httpVersion === '1.1' && !request.headers.host
}

/** An answer the server gives before any operation (Node's own would be bare): the usual error body, then close. */
function answerAndClose(
  response: ServerResponse,
  { status, error, message }: { status: number; error: string; message: string },
): void {
  const body = JSON.stringify({ error, message })
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
    Connection: 'close',
  })
  response.end(body)
}

/**
 * Node's own answer to a request it cannot parse is a bare status line; this one carries the usual error body
 * (docs/security/hardening.md).
 */
function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
  call: { request: IncomingMessage; response: ServerResponse } | undefined,
  bodies: BodyReader,
): void {
  const started = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent
  if (!socket.writable || started || error.code === 'ECONNRESET') {
    socket.destroy()
    return
  }
  // Only the body broke on the wire, so the running operation answers (pipeline/read-input.ts), then the
  // connection closes. A late request keeps its 408 below.
  if (call && !call.request.complete && error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
    if (call.response.writableEnded) return void socket.destroy()
    call.response.shouldKeepAlive = false
    bodies.markUnreadable(call.request)
    return
  }
  const { status, error: code, message } = CLIENT_ERRORS[error.code ?? ''] ?? UNREADABLE
  const body = JSON.stringify({ error: code, message })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\nConnection: close\r\n\r\n' +
      body,
  )
}
