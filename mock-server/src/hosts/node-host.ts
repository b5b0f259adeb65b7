// The one way in for every request (docs/decisions/013-mock-server-speed.md): off node:http, the pipeline first
// (pipeline/dispatch.ts), then the web app's files (web.ts), then the 404. Every answer carries the security headers
// (security-headers.ts), HSTS over https read from the trusted hop; the client is read from the same hop; whatever
// escapes ends in the last resort (answers.ts).
import { createInFlight, type InFlight } from './in-flight.ts'
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import { toClientKey } from '../pipeline/client-key.ts'
import type { Dispatch } from '../pipeline/dispatch.ts'
import { forwardedProtocol } from '../pipeline/forwarded-proto.ts'
import type { RawRequest, RawResponse } from '../pipeline/raw.ts'
import { answerFault, closeIfBodyUnread, dropAnswer, sendNotFound } from './answers.ts'
import { clientAddress } from './client-address.ts'
import { encodeBody } from './compress.ts'
import { createBodyReader, type BodyReader } from './read-body.ts'
import { securityHeaders } from './security-headers.ts'

/** Serves what the pipeline does not (web.ts); calls `next` for nothing there, or with what went wrong. */
export type WebFiles = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void

export interface NodeHostOptions {
  /** Proxies in front (app.ts `trustProxyHops`). */
  hops: number
  web?: WebFiles | undefined
  logError?: ((line: string) => void) | undefined
}

/** The host's listener, with the body reader its server tells of broken bodies and deferred `100 Continue`s. */
export interface NodeHostListener extends RequestListener {
  bodies: BodyReader
  /** The calls still being dispatched: a stop waits for them. */
  inFlight: InFlight
}

export function createNodeHost(dispatch: Dispatch, options: NodeHostOptions): NodeHostListener {
  const { hops, web, logError } = options
  const bodies = createBodyReader()
  const inFlight = createInFlight()
  const fail = (request: IncomingMessage, response: ServerResponse, error: unknown) =>
    answerFault(request, response, error, logError)
  const notFound = (request: IncomingMessage, response: ServerResponse, error?: unknown) =>
    error === undefined ? sendNotFound(response) : fail(request, response, error)
  // Answered a turn later, as it always was, so a small body sent apart from its head has arrived and the 404
  // keeps the connection (answers.ts closes one whose body is unread).
  const afterWeb = (request: IncomingMessage, response: ServerResponse) => (error?: unknown) =>
    void setImmediate(notFound, request, response, error)
  const listener: RequestListener = (request, response) => {
    const raw = toRawRequest(request, hops, bodies)
    const headers = securityHeaders(raw.secure)
    inFlight.track(dispatch(raw)).then(
      (answer) => {
        if (answer) return answerWith(request, response, answer, headers, fail)
        // What answers from here on sets its headers one by one (the static sender among them): these go first.
        for (const name in headers) response.setHeader(name, headers[name]!)
        if (!web) return notFound(request, response)
        try {
          web(request, response, afterWeb(request, response))
        } catch (error) {
          fail(request, response, error)
        }
      },
      (error: unknown) => {
        for (const name in headers) response.setHeader(name, headers[name]!)
        fail(request, response, error)
      },
    )
  }
  return Object.assign(listener, { bodies, inFlight })
}

function toRawRequest(request: IncomingMessage, hops: number, bodies: BodyReader): RawRequest {
  const headers = toHeaders(request)
  const direct = (request.socket as TLSSocket).encrypted ? 'https' : 'http'
  const secure = forwardedProtocol(headers['x-forwarded-proto'], hops, direct) === 'https'
  return {
    method: request.method ?? 'GET',
    url: request.url ?? '/',
    headers,
    // Read only when the dispatcher has routed the call to an operation that takes a body.
    readBody: (maxBytes) => bodies.read(request, maxBytes),
    // IPv6 clients count by their /64.
    ip: toClientKey(clientAddress(request, hops)),
    secure,
    origin: `${secure ? 'https' : 'http'}://${headers.host ?? 'localhost'}`,
  }
}

function answerWith(
  request: IncomingMessage,
  response: ServerResponse,
  answer: RawResponse,
  base: Readonly<Record<string, string>>,
  fail: (request: IncomingMessage, response: ServerResponse, error: unknown) => void,
): void {
  if (answer.dropped) return dropAnswer(response)
  try {
    send(request, response, answer, base)
  } catch (error) {
    // An answer Node refuses to write (a header value with a line break: ERR_INVALID_CHAR) is a 500 for this call,
    // never an unhandled rejection that ends the server (docs/decisions/017-har-record-and-replay.md).
    for (const name in base) response.setHeader(name, base[name]!)
    fail(request, response, error)
  }
}

function send(
  request: IncomingMessage,
  response: ServerResponse,
  raw: RawResponse,
  base: Readonly<Record<string, string>>,
): void {
  closeIfBodyUnread(response)
  const { body, headers } = encodeBody(
    request.headers['accept-encoding'],
    request.method ?? 'GET',
    raw.body,
    raw.headers.vary,
    raw.headers['set-cookie'] !== undefined,
  )
  // Headers given to writeHead are sent as they are: the length is stated here (Node would add it only when the
  // headers are set one by one).
  const length =
    body === undefined
      ? raw.status === 204 || raw.status === 304
        ? {}
        : { 'content-length': '0' }
      : { 'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength) }
  response.writeHead(raw.status, { ...base, ...raw.headers, ...headers, ...length })
  response.end(body)
}

function toHeaders(request: IncomingMessage): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {}
  const source = request.headers
  for (const name in source) {
    const value = source[name]
    headers[name] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}
