// The documents' calls straight off node:http, in front of Express (app.ts): a request the dispatcher answers never
// enters Express's middleware stack; one it does not (the web app's files, a path nothing describes) goes on to
// Express. Both give the same answers: helmet's headers (captured once from helmet itself), HSTS over https, the
// client read from the trusted hop as Express's `trust proxy` reads it, the same last resort for a fault
// (docs/decisions/013-mock-server-speed.md).
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { TLSSocket } from 'node:tls'
import type { MockCore } from '../core.ts'
import { toClientKey } from '../pipeline/client-key.ts'
import { forwardedProtocol } from '../pipeline/forwarded-proto.ts'
import type { RawResponse } from '../pipeline/raw.ts'
import { encodeBody } from './compress.ts'
import { answerFault, closeIfBodyUnread, dropAnswer } from './express.ts'
import { readRequestBody } from './read-body.ts'

export interface ApiHostOptions {
  /** Proxies in front (app.ts `trustProxyHops`). */
  hops: number
  /** Headers every answer carries (helmet's), names lower-cased. */
  baseHeaders: Record<string, string>
  /** Added over https. */
  secureHeaders: Record<string, string>
  logError?: ((line: string) => void) | undefined
}

export type ApiHost = (request: IncomingMessage, response: ServerResponse, next: () => void) => void

export function createApiHost(core: Pick<MockCore, 'dispatch'>, options: ApiHostOptions): ApiHost {
  const { hops, baseHeaders, secureHeaders } = options
  return (request, response, next) => {
    const headers = toHeaders(request)
    const direct = (request.socket as TLSSocket).encrypted ? 'https' : 'http'
    const secure = forwardedProtocol(headers['x-forwarded-proto'], hops, direct) === 'https'
    core
      .dispatch({
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers,
        // Read only when the dispatcher has routed the call to an operation that takes a body.
        readBody: (maxBytes) => readRequestBody(request, maxBytes),
        // IPv6 clients count by their /64.
        ip: toClientKey(clientAddress(request, hops)),
        secure,
        origin: `${secure ? 'https' : 'http'}://${headers.host ?? 'localhost'}`,
      })
      .then(
        (raw) => {
          if (!raw) return next()
          if (raw.dropped) return dropAnswer(response)
          try {
            send(request, response, raw, secure ? { ...baseHeaders, ...secureHeaders } : baseHeaders)
          } catch (error) {
            // An answer Node refuses to write (a header value with a line break: ERR_INVALID_CHAR) is a 500 for this
            // call, never an unhandled rejection that ends the server (docs/decisions/017-har-record-and-replay.md).
            answerFault(request, response, error, options.logError)
          }
        },
        (error: unknown) => {
          for (const [name, value] of Object.entries(baseHeaders)) response.setHeader(name, value)
          if (secure)
            for (const [name, value] of Object.entries(secureHeaders)) response.setHeader(name, value)
          answerFault(request, response, error, options.logError)
        },
      )
  }
}

function send(
  request: IncomingMessage,
  response: ServerResponse,
  raw: RawResponse,
  base: Record<string, string>,
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

/**
 * The client as Express reads it with `trust proxy` set to a number of hops (proxy-addr): the socket's address, then
 * X-Forwarded-For's entries from the right; the entry `hops` along, or the left-most when there are fewer.
 */
export function clientAddress(request: IncomingMessage, hops: number): string {
  const socket = request.socket.remoteAddress ?? 'unknown'
  const header = request.headers['x-forwarded-for']
  if (hops <= 0 || !header) return socket
  const entries = forwardedEntries(Array.isArray(header) ? header.join(', ') : header)
  return hops <= entries.length ? entries[hops - 1]! : (entries[entries.length - 1] ?? socket)
}

/** X-Forwarded-For's addresses, right to left, as proxy-addr splits them (commas, blanks trimmed, empties skipped). */
function forwardedEntries(header: string): string[] {
  const list: string[] = []
  let end = header.length
  let start = header.length
  for (let index = header.length - 1; index >= 0; index -= 1) {
    const code = header.charCodeAt(index)
    if (code === 0x20) {
      if (start === end) start = end = index
    } else if (code === 0x2c) {
      if (start !== end) list.push(header.substring(start, end))
      start = end = index
    } else {
      start = index
    }
  }
  if (start !== end) list.push(header.substring(start, end))
  return list
}
