// The request and response every host adapts to: plain data, no framework types. A Fetch Response cannot say
// "body read only once routed, up to a limit" or "answer lost", which a socket needs. Fetch hosts adapt with
// fromFetchRequest and toFetchResponse.

export interface RawRequest {
  method: string
  /** Path and query string, e.g. /api/me?x=1. */
  url: string
  /** Header names lower-cased. */
  headers: Record<string, string | undefined>
  /**
   * Reads the body (decoded from its `Content-Encoding`), at most `maxBytes` of it. The dispatcher calls it only
   * after routing, and only for an operation that takes a body, so nothing else is ever read.
   */
  readBody(maxBytes: number): Promise<BodyRead>
  ip: string
  secure: boolean
  /** This server's origin as the client reached it, e.g. http://127.0.0.1:4010. */
  origin: string
  /**
   * performance.now() when the call arrived, before any store work ahead of the pipeline (core.ts sets it): the
   * request log's duration counts from it, so a call held by an unreachable database is logged as long as it took.
   */
  receivedAt?: number
}

/** The bytes, or why there are none: more than the limit, an encoding the server does not decode, or unreadable. */
export type BodyRead = Uint8Array | 'too_large' | 'unsupported_encoding' | 'unreadable'

/** `readBody` for a body already in memory (the MSW host, tests, the bench). */
export function bodyFrom(bytes: Uint8Array | undefined): RawRequest['readBody'] {
  return async (maxBytes) => {
    const body = bytes ?? new Uint8Array()
    return body.byteLength > maxBytes ? 'too_large' : body
  }
}

/** A request's URL as the pipeline routes it: dot segments resolved, a backslash read as `/`, absolute form taken. */
export function requestUrl(raw: Pick<RawRequest, 'url'>): URL {
  return new URL(raw.url, 'http://mock.invalid')
}

export interface RawResponse {
  status: number
  headers: Record<string, string | string[]>
  /**
   * Text (JSON, a page) is sent as UTF-8; bytes are sent as they are: a replayed answer recorded in base64 (an
   * image, a favicon) must reach the client byte for byte (docs/decisions/017-har-record-and-replay.md). Over an
   * ArrayBuffer (a Buffer's, a new Uint8Array's), never shared memory: a fetch `Response` takes only those.
   */
  body: string | Uint8Array<ArrayBuffer> | undefined
  /**
   * The call ran and this is what it would have answered, but the host must send nothing: it drops the
   * connection (a network error for the client), as a server that dies after committing would.
   */
  dropped?: true
}

/**
 * A Fetch `Request` as the pipeline reads it, from 127.0.0.1; `extraHeaders` go under the request's own (a Host a
 * socket would have carried). The body is read only when the call is routed to an operation that takes one.
 */
export function fromFetchRequest(request: Request, extraHeaders: Record<string, string> = {}): RawRequest {
  const url = new URL(request.url)
  const headers: Record<string, string | undefined> = { ...extraHeaders }
  request.headers.forEach((value, name) => (headers[name] = value))
  return {
    method: request.method,
    url: url.pathname + url.search,
    headers,
    readBody:
      request.body === null
        ? bodyFrom(undefined)
        : async (maxBytes) => bodyFrom(new Uint8Array(await request.arrayBuffer()))(maxBytes),
    ip: '127.0.0.1',
    secure: url.protocol === 'https:',
    origin: url.origin,
  }
}

/** Statuses whose Fetch `Response` may carry no body, not even an empty one. */
const NULL_BODY = new Set([101, 204, 205, 304])

/** The pipeline's answer as a Fetch `Response` (a dropped answer is the host's to act out). */
export function toFetchResponse(raw: RawResponse): Response {
  const headers = new Headers()
  for (const [name, value] of Object.entries(raw.headers))
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  return new Response(NULL_BODY.has(raw.status) ? null : (raw.body ?? null), { status: raw.status, headers })
}

const UTF8 = new TextDecoder()

/** The body as text: bytes read as UTF-8, none as ''. For tests; the hosts send the bytes as they are. */
export function bodyText(body: RawResponse['body']): string {
  return body === undefined ? '' : typeof body === 'string' ? body : UTF8.decode(body)
}

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): RawResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  }
}

export function errorResponse(
  status: number,
  error: string,
  message: string,
  extra: Record<string, unknown> = {},
) {
  return jsonResponse(status, { error, message, ...extra })
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {}
  for (const part of header?.split(';') ?? []) {
    const index = part.indexOf('=')
    if (index < 1) continue
    const name = part.slice(0, index).trim()
    const value = part.slice(index + 1).trim()
    try {
      if (!(name in cookies)) cookies[name] = decodeURIComponent(value)
    } catch {
      // A cookie that is not valid percent-encoding is ignored, like a missing one.
    }
  }
  return cookies
}
