// The journal as an HTTP Archive 1.2 (GET /__mock/requests?format=har): one entry per journaled call, from what the
// journal kept of it, already redacted (pipeline/exchange.ts). The schema is the control document's `Har`, written from
// the HAR 1.2 specification (docs/decisions/017-har-record-and-replay.md).
import type { components } from '#api/control.gen.ts'
import type { Exchange } from '../pipeline/exchange.ts'
import type { JournalEntry, RecordedCall } from '../pipeline/journal.ts'
import { REDACTED } from '../pipeline/redact.ts'
import { STATUS_TEXT } from '../shared/status-text.ts'

export type Har = components['schemas']['Har']
export type HarEntry = components['schemas']['HarEntry']
type HarCookie = components['schemas']['HarCookie']
type HarNameValue = components['schemas']['HarNameValue']

export const HAR_CREATOR = { name: 'auth-shell mock server', version: '1.0.0' }

const HTTP_VERSION = 'HTTP/1.1'

/** The HAR of journal records, oldest first. */
export function toHar(records: readonly RecordedCall[]): Har {
  return {
    log: {
      version: '1.2',
      creator: HAR_CREATOR,
      entries: records.map(toHarEntry),
      comment: `Recorded by the mock server's journal. Passwords, tokens, codes and cookie values read ${REDACTED}.`,
    },
  }
}

function toHarEntry({ entry, exchange }: RecordedCall): HarEntry {
  const durationMs = exchange?.durationMs ?? 0
  const started = new Date(Date.parse(entry.at) - durationMs).toISOString()
  const custom = {
    _seq: entry.seq,
    ...(entry.operation !== undefined && { _operation: entry.operation }),
    ...(entry.scenario !== undefined && { _scenario: entry.scenario }),
  }
  const comment = exchange?.trimmed
    ? 'Headers and bodies are no longer kept: the journal keeps them for its newest calls only (about 8 MiB of text).'
    : !exchange
      ? 'Recorded without its exchange.'
      : undefined
  return {
    startedDateTime: started,
    time: durationMs,
    request: toHarRequest(entry, exchange),
    response: toHarResponse(entry, exchange),
    cache: {},
    timings: { send: 0, wait: durationMs, receive: 0 },
    ...(comment !== undefined && { comment }),
    ...custom,
  }
}

function toHarRequest(entry: JournalEntry, exchange: Exchange | undefined): HarEntry['request'] {
  const url = new URL(exchange?.url ?? entry.path, exchange?.origin ?? 'http://mock.invalid')
  const headers = (exchange?.requestHeaders ?? []).map(([name, value]) => ({ name, value }))
  const cookieHeader = exchange?.requestHeaders.find(([name]) => name === 'cookie')?.[1]
  const body = exchange?.requestBody
  return {
    method: entry.method,
    // The URL as the journal kept it (its redacted query written as it was, not percent-encoded again).
    url: `${url.origin}${exchange?.url ?? entry.path}`,
    httpVersion: HTTP_VERSION,
    cookies: cookieHeader ? parseCookieHeader(cookieHeader) : [],
    headers,
    queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
    ...(body && { postData: { mimeType: body.mimeType, text: body.text } }),
    // A body the server refused is not kept; marked so a replay does not take it for a request sent without one.
    ...(exchange?.requestBodyOmitted && { _bodyOmitted: exchange.requestBodyOmitted }),
    headersSize: -1,
    // The body is kept decoded and redacted: its size on the wire is not known.
    bodySize: body ? -1 : 0,
  }
}

function toHarResponse(entry: JournalEntry, exchange: Exchange | undefined): HarEntry['response'] {
  if (exchange?.response.dropped) {
    // What the client saw, as a browser writes a request that got no answer.
    return {
      status: -1,
      statusText: '',
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: [],
      content: { size: -1, mimeType: 'x-unknown' },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
      _failureText: `The connection was dropped with no answer${entry.status >= 100 ? ` (the server computed ${entry.status})` : ''}.`,
    }
  }
  const headers: HarNameValue[] = (exchange?.response.headers ?? []).map(([name, value]) => ({ name, value }))
  const body = exchange?.response.body
  return {
    status: entry.status,
    statusText: STATUS_TEXT[entry.status] ?? '',
    httpVersion: HTTP_VERSION,
    cookies: headers.filter(({ name }) => name === 'set-cookie').map(({ value }) => parseSetCookie(value)),
    headers,
    content: body
      ? {
          size: Buffer.byteLength(body.text, body.encoding ?? 'utf8'),
          mimeType: body.mimeType,
          text: body.text,
          // Bytes that are not text, in base64, as browsers write an image (a replay's answer).
          ...(body.encoding && { encoding: body.encoding }),
        }
      : { size: 0, mimeType: headers.find(({ name }) => name === 'content-type')?.value ?? 'x-unknown' },
    redirectURL: headers.find(({ name }) => name === 'location')?.value ?? '',
    headersSize: -1,
    bodySize: -1,
  }
}

/** `a=1; b=2` as HAR cookies. */
function parseCookieHeader(header: string): HarCookie[] {
  return header
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.includes('='))
    .map((part) => {
      const index = part.indexOf('=')
      return { name: part.slice(0, index), value: part.slice(index + 1) }
    })
}

/** One Set-Cookie value as a HAR cookie: name, value and the attributes HAR names. */
function parseSetCookie(header: string): HarCookie {
  const [pair = '', ...attributes] = header.split(';')
  const index = pair.indexOf('=')
  const cookie: HarCookie = {
    name: pair.slice(0, Math.max(index, 0)).trim(),
    value: index === -1 ? '' : pair.slice(index + 1).trim(),
  }
  for (const attribute of attributes) {
    const [rawName = '', ...rest] = attribute.split('=')
    const value = rest.join('=').trim()
    switch (rawName.trim().toLowerCase()) {
      case 'path':
        cookie.path = value
        break
      case 'domain':
        cookie.domain = value
        break
      case 'expires': {
        const at = Date.parse(value)
        if (!Number.isNaN(at)) cookie.expires = new Date(at).toISOString()
        break
      }
      case 'httponly':
        cookie.httpOnly = true
        break
      case 'secure':
        cookie.secure = true
        break
    }
  }
  return cookie
}
