// One call as the journal keeps it for GET /__mock/requests?format=har: its URL, headers and body and its answer's,
// each redacted here, before the journal holds it (pipeline/redact.ts; docs/decisions/017-har-record-and-replay.md).
import { redactBodyText, redactHeader, redactJson, redactUrl } from './redact.ts'

export interface ExchangeBody {
  mimeType: string
  text: string
  /** `text` holds the bytes in base64: an answer of bytes whose type is not text (a replayed image). */
  encoding?: 'base64'
}

export interface Exchange {
  /** The server's origin as the client reached it, e.g. http://127.0.0.1:4010. */
  origin: string
  /** Path and query, secrets redacted. */
  url: string
  /** Headers as received (names lower-cased), secrets redacted. */
  requestHeaders: [string, string][]
  /** The body as the operation read it, when it read one. */
  requestBody?: ExchangeBody
  /**
   * The request carried a body the server refused to read (a 400, 413 or 415 input refusal), so none is kept: the
   * HAR says so (`_bodyOmitted: "refused"`) and a replay never takes such an entry for a request with a body.
   */
  requestBodyOmitted?: 'refused'
  response: {
    status: number
    headers: [string, string][]
    body?: ExchangeBody
    /** The answer was never sent (`answer-lost`). */
    dropped?: true
  }
  /** From the call's arrival to its answer. */
  durationMs: number
  /** Its headers and bodies were dropped for newer ones (the journal's size limit). */
  trimmed?: true
}

/** What an exchange keeps once the journal needs its room: the URL, the status and the timing. */
export function trimExchange(exchange: Exchange): Exchange {
  const { status, dropped } = exchange.response
  return {
    origin: exchange.origin,
    url: exchange.url,
    requestHeaders: [],
    ...(exchange.requestBodyOmitted && { requestBodyOmitted: exchange.requestBodyOmitted }),
    response: { status, headers: [], ...(dropped && { dropped }) },
    durationMs: exchange.durationMs,
    trimmed: true,
  }
}

export interface ExchangeInput {
  origin: string
  /** Path and query as received. */
  url: string
  headers: Record<string, string | undefined>
  /** The decoded request body the operation read (undefined when it read none). */
  body: unknown
  response: {
    status: number
    headers: Record<string, string | string[]>
    /** Bytes only from a replay (har/replay-core.ts): an answer recorded in base64. */
    body: string | Uint8Array | undefined
    dropped?: true
  }
  durationMs: number
}

/** A call, redacted, as the journal keeps it. */
export function toExchange(input: ExchangeInput): Exchange {
  const requestHeaders: [string, string][] = []
  for (const [name, value] of Object.entries(input.headers)) {
    if (value !== undefined) requestHeaders.push([name, redactHeader(name, value)])
  }
  const responseHeaders: [string, string][] = []
  for (const [name, value] of Object.entries(input.response.headers)) {
    for (const one of Array.isArray(value) ? value : [value])
      responseHeaders.push([name, redactHeader(name, one)])
  }
  const requestType = input.headers['content-type'] ?? 'application/json'
  const responseType = headerOf(input.response.headers, 'content-type') ?? 'application/octet-stream'
  return {
    origin: input.origin,
    url: redactUrl(input.url),
    requestHeaders,
    ...(input.body !== undefined && { requestBody: describeRequestBody(requestType, input.body) }),
    ...(input.body === undefined &&
      REFUSED_INPUT.has(input.response.status) &&
      carriesBody(input.headers) && { requestBodyOmitted: 'refused' as const }),
    response: {
      status: input.response.status,
      headers: responseHeaders,
      ...(input.response.body !== undefined && {
        body: describeResponseBody(responseType, input.response.body),
      }),
      ...(input.response.dropped && { dropped: true }),
    },
    durationMs: input.durationMs,
  }
}

/** The statuses of a refused input (unreadable, too large, an unsupported type): the body was never kept. */
const REFUSED_INPUT = new Set([400, 413, 415])

/** Whether the request announced a body (RFC 9112: a Content-Length above 0, or a Transfer-Encoding). */
function carriesBody(headers: Record<string, string | undefined>): boolean {
  const length = headers['content-length']
  return headers['transfer-encoding'] !== undefined || (length !== undefined && length.trim() !== '0')
}

/** A decoded body back as text: JSON for a parsed object, the form or text as it was, both redacted. */
function describeRequestBody(mimeType: string, body: unknown): ExchangeBody {
  if (typeof body === 'string') return { mimeType, text: redactBodyText(mimeType, body) }
  if (body instanceof Uint8Array) return { mimeType, text: `(${body.byteLength} bytes, not kept)` }
  const type = mimeType.split(';')[0]!.trim().toLowerCase()
  if (type === 'application/x-www-form-urlencoded' && typeof body === 'object' && body !== null) {
    const form = new URLSearchParams(Object.entries(body as Record<string, string>)).toString()
    return { mimeType, text: redactBodyText(mimeType, form) }
  }
  return { mimeType, text: JSON.stringify(redactJson(body)) }
}

/**
 * An answer's body as text, redacted; bytes of a non-text type as base64, as a browser's HAR holds an image.
 * Text-typed bytes are read as UTF-8 and redacted, so a secret is never kept, even if a byte becomes U+FFFD.
 */
function describeResponseBody(mimeType: string, body: string | Uint8Array): ExchangeBody {
  if (typeof body === 'string') return { mimeType, text: redactBodyText(mimeType, body) }
  if (isTextType(mimeType)) return { mimeType, text: redactBodyText(mimeType, UTF8.decode(body)) }
  // A copy, as the demo's Buffer (browser/buffer.ts) makes it: it reads no offset into an ArrayBuffer.
  return { mimeType, text: Buffer.from(body).toString('base64'), encoding: 'base64' }
}

/** A byte order mark is kept, as the bytes had it. */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** Text, JSON, XML, JavaScript, a form, SVG (with or without parameters): what the journal keeps as text. */
const TEXT_TYPE =
  /^(?:text\/[^;]+|application\/(?:[^;]*[+.-])?(?:json|xml|javascript|ecmascript|x-www-form-urlencoded|graphql)|image\/svg\+xml)\s*(?:;|$)/i

function isTextType(mimeType: string): boolean {
  return TEXT_TYPE.test(mimeType.trim())
}

function headerOf(headers: Record<string, string | string[]>, name: string): string | undefined {
  const value = headers[name]
  return Array.isArray(value) ? value[0] : value
}
