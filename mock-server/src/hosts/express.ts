// The Express host: every request becomes a RawRequest for the core's dispatch; what the documents
// do not describe falls through to the next handler (static files, the SPA fallback).
import express, { type NextFunction, type Request, type Response, type Router } from 'express'
import type { MockCore } from '../core.ts'
import { toClientKey } from '../http/client-key.ts'
import { errorResponse, type RawResponse } from '../http/raw.ts'
import { hasRequestBody, readRequestBody } from './read-body.ts'
import { describeFault } from '../http/fault-line.ts'

function toHeaders(request: Request): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value
  }
  return headers
}

function send(response: Response, raw: RawResponse): void {
  if (raw.dropped) return dropAnswer(response)
  closeIfBodyUnread(response)
  response.status(raw.status)
  for (const [name, value] of Object.entries(raw.headers)) response.setHeader(name, value)
  response.end(raw.body)
}

/**
 * Closes the connection without an answer the client could read. A browser resends a request on its own when a
 * reused keep-alive connection closes before any byte of the answer arrives (Chromium does so for a POST too), which
 * would turn a lost answer into a second call; the first bytes of a status line make the loss final: the client's
 * fetch fails (Node: ECONNRESET "socket hang up"; Chromium: a network error), and nothing is resent.
 */
function dropAnswer(response: Response): void {
  const socket = response.socket
  if (!socket) return
  socket.write('HTTP/1.1 ', () => socket.destroy())
}

/**
 * An answer given before the body was read (a 404, a 413, an operation that takes none) ends the connection:
 * otherwise Node would go on reading, and discarding, whatever the client still sends.
 */
export function closeIfBodyUnread(response: Response): void {
  const request = response.req
  if (!request.complete && hasRequestBody(request)) response.setHeader('connection', 'close')
}

/** An error in the documented `{ error, message }` shape, closing the connection when the body was not read. */
export function sendError(
  response: Response,
  status: number,
  error: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const raw = errorResponse(status, error, message)
  Object.assign(raw.headers, headers)
  send(response, raw)
}

/** Routes for both documents, in front of whatever the caller mounts after them. */
export function createExpressRouter(core: MockCore): Router {
  const router = express.Router()
  router.use(async (request: Request, response: Response, next: NextFunction) => {
    try {
      const host = request.get('host') ?? 'localhost'
      const raw = await core.dispatch({
        method: request.method,
        url: request.originalUrl,
        headers: toHeaders(request),
        // Read only when the dispatcher has routed the call to an operation that takes a body.
        readBody: (maxBytes) => readRequestBody(request, maxBytes),
        // request.ip honours `trust proxy` (a number of hops, app.ts); IPv6 clients count by their /64.
        ip: toClientKey(request.ip ?? request.socket.remoteAddress ?? 'unknown'),
        secure: request.secure,
        origin: `${request.protocol}://${host}`,
      })
      if (raw) send(response, raw)
      else next()
    } catch (error) {
      next(error)
    }
  })
  return router
}

/**
 * The last resort: whatever escaped the dispatcher, in the documented error shape; a 500 leaves one line in
 * `logError` (http/fault-line.ts).
 */
export const createLastResort =
  (logError?: (line: string) => void) =>
  (error: unknown, request: Request, response: Response, next: NextFunction): void => {
    const failure = error as { status?: number }
    if (response.headersSent) return next(error)
    const status = failure.status ?? 500
    if (status >= 500) logError?.(describeFault(`${request.method} ${request.path} 500`, error))
    handleBodyErrors(failure, response)
  }

function handleBodyErrors(failure: { status?: number }, response: Response): void {
  // A file the static host does not have is a 404 `not_found`, like any other path with nothing there.
  if (failure.status === 404) return sendError(response, 404, 'not_found', 'Nothing here.')
  if (failure.status !== undefined && failure.status >= 400 && failure.status < 500) {
    return sendError(response, failure.status, 'bad_request', 'The request could not be read.')
  }
  sendError(response, 500, 'internal_error', 'Something went wrong on our side.')
}
