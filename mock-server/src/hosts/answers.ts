// What the Node host (node-host.ts) and its web files (web.ts) send alike: a lost answer, an error in the documented
// shape, and the last resort for whatever escaped.
import { createHash } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { LINGER_MS } from '../shared/constants.ts'
import { describeFault } from '../pipeline/fault-line.ts'
import { errorResponse, type RawResponse } from '../pipeline/raw.ts'
import { hasRequestBody } from './read-body.ts'

function send(response: ServerResponse, raw: RawResponse): void {
  if (raw.dropped) return dropAnswer(response)
  closeIfBodyUnread(response)
  response.statusCode = raw.status
  for (const [name, value] of Object.entries(raw.headers)) response.setHeader(name, value)
  response.end(raw.body)
}

/**
 * Closes the connection without an answer the client could read. A browser resends a request when a reused
 * connection closes before any byte arrives, turning a lost answer into a second call. Sending the first bytes
 * of a status line makes the loss final: the fetch fails and nothing is resent.
 */
export function dropAnswer(response: ServerResponse): void {
  const socket = response.socket
  if (!socket) return
  socket.write('HTTP/1.1 ', () => socket.destroy())
}

/**
 * An answer given before the body was read (a 404, a 413, an operation that takes none) ends the connection:
 * otherwise Node would go on reading, and discarding, whatever the client still sends.
 */
export function closeIfBodyUnread(response: ServerResponse): void {
  const request = response.req
  if (request.complete || !hasRequestBody(request)) return
  response.setHeader('connection', 'close')
  lingerBeforeClosing(request)
}

/**
 * Closing a socket while the client still sends makes the kernel answer with a reset. A balancer streaming the body
 * (nginx) then fails its write and reports 502 instead of the answer. So, as nginx itself does, the connection is
 * ended on our side once the answer is out, and what still comes is read and thrown away until the body ends, the
 * client closes, or LINGER_MS passes.
 */
function lingerBeforeClosing(request: IncomingMessage): void {
  const socket = request.socket
  socket.destroySoon = () => {
    if (socket.writable) socket.end()
    if (request.complete) return void socket.destroy()
    const close = () => {
      clearTimeout(timer)
      socket.destroy()
    }
    const timer = setTimeout(close, LINGER_MS)
    timer.unref()
    request.once('end', close)
    socket.once('end', close)
    socket.once('close', () => clearTimeout(timer))
    request.resume()
  }
}

/** An error in the documented `{ error, message }` shape, closing the connection when the body was not read. */
export function sendError(
  response: ServerResponse,
  status: number,
  error: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const raw = errorResponse(status, error, message)
  Object.assign(raw.headers, headers)
  send(response, raw)
}

/** The weak ETag Express gave a text it sent, which the 404 and the 503 page still carry. */
export function weakEtag(text: string): string {
  const hash = createHash('sha1').update(text).digest('base64').slice(0, 27)
  return `W/"${Buffer.byteLength(text).toString(16)}-${hash}"`
}

const NOT_FOUND = errorResponse(404, 'not_found', 'Nothing here.').body as string
/** Its length stated, so a HEAD learns it too. */
const NOT_FOUND_HEADERS = {
  'content-length': String(Buffer.byteLength(NOT_FOUND)),
  etag: weakEtag(NOT_FOUND),
}

/** A path with nothing there: the documented 404. */
export function sendNotFound(response: ServerResponse): void {
  sendError(response, 404, 'not_found', 'Nothing here.', NOT_FOUND_HEADERS)
}

/**
 * The last resort for whatever escaped, in the documented error shape; a 500 leaves one line in `logError`
 * (pipeline/fault-line.ts).
 */
export function answerFault(
  request: IncomingMessage,
  response: ServerResponse,
  error: unknown,
  logError?: (line: string) => void,
): void {
  if (response.headersSent) return void response.destroy()
  const failure = error as { status?: number }
  const status = failure.status ?? 500
  if (status >= 500) logError?.(describeFault(`${request.method} ${pathOf(request.url ?? '/')} 500`, error))
  handleBodyErrors(failure, response)
}

function pathOf(url: string): string {
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

function handleBodyErrors(failure: { status?: number }, response: ServerResponse): void {
  // A file the static host does not have is a 404 `not_found`, like any other path with nothing there.
  if (failure.status === 404) return sendError(response, 404, 'not_found', 'Nothing here.')
  if (failure.status !== undefined && failure.status >= 400 && failure.status < 500) {
    return sendError(response, failure.status, 'bad_request', 'The request could not be read.')
  }
  sendError(response, 500, 'internal_error', 'Something went wrong on our side.')
}
