// `npm run mock -- --replay <file.har>`: the product API answered from a recorded HAR instead of the mock backend
// (docs/decisions/017-har-record-and-replay.md). An unmatched call gets a 501 `replay_no_match` naming it
// (har/matcher.ts). Of /__mock only the journal and reset answer, behind the same guard; the rest is a 404.
import type { operations as ApiOperations } from '#api/openapi.gen.ts'
import type { operations as ControlOperations } from '#api/control.gen.ts'
import { toExchange } from '../pipeline/exchange.ts'
import { createJournal, type Journal } from '../pipeline/journal.ts'
import { redactSearch } from '../pipeline/redact.ts'
import { refuseControlRequest } from '../pipeline/control-guard.ts'
import { createDispatcher, type Dispatch } from '../pipeline/dispatch.ts'
import { createRoutes } from '../pipeline/openapi-docs.ts'
import { errorResponse, type RawRequest, type RawResponse } from '../pipeline/raw.ts'
import { readJournal } from './requests.ts'
import type { OperationTable } from '../pipeline/types.ts'
import { REPLAYED_PATHS, isSendableHeader, type LoadedHar, type RecordedCall } from './har-file.ts'
import { createReplayMatcher, type ReplayMatcher } from './matcher.ts'

/** The largest request body a replayed call reads (to compare it): larger than any the product API takes. */
export const MAX_REPLAY_BODY_BYTES = 1024 * 1024

/** The recorded response headers a replay sends again; the others (lengths, encodings, dates, ...) are the host's. */
const REPLAYED_HEADERS = new Set([
  'content-type',
  'cache-control',
  'location',
  'retry-after',
  'www-authenticate',
  'allow',
  'set-cookie',
])

export interface ReplayOptions {
  har: LoadedHar
  /** The built web app: its build manifest is served under /builds/. */
  webRoot?: string
  /** Host names /__mock answers to besides the loopback names. */
  allowedHosts?: string[]
  /** When set, every /__mock call must carry it. */
  controlToken?: string
  /** One line per request: method, path, status, which recorded call answered; never a body, token or code. */
  log?: (line: string) => void
  logError?: (line: string) => void
  /** The time source of the journal (default Date.now). */
  realNow?: () => number
}

type HealthOperations = 'getLiveness' | 'headLiveness' | 'getReadiness' | 'headReadiness'

/**
 * What replay mode serves besides the recording: the product's build manifest and the probes (/healthz, /readyz),
 * handed in by app.ts.
 */
export interface ReplayDeps {
  builds: OperationTable<Pick<ApiOperations, 'getLatestBuild' | 'getBuildMeta'>>
  health: OperationTable<Pick<ControlOperations, HealthOperations>>
}

export interface ReplayCore {
  dispatch(request: RawRequest): Promise<RawResponse | null>
  journal: Journal
  matcher: ReplayMatcher
}

const UTF8 = new TextDecoder()

export function createReplayCore(options: ReplayOptions, { builds, health }: ReplayDeps): ReplayCore {
  const now = options.realNow ?? Date.now
  const journal = createJournal({ now })
  const matcher = createReplayMatcher(options.har.calls)
  const apiRoutes = createRoutes('api')
  const guard = (request: RawRequest) =>
    refuseControlRequest(request, {
      allowedHosts: options.allowedHosts ?? [],
      ...(options.controlToken !== undefined && { token: options.controlToken }),
    })
  const control: OperationTable<Pick<ControlOperations, 'getRequests' | 'resetMock' | HealthOperations>> = {
    ...health,
    getRequests: ({ query }) => readJournal(journal, query),
    async resetMock() {
      matcher.rewind()
      await journal.clear()
      return { status: 200, body: { reset: true } }
    },
  }
  const served = new Set([...Object.keys(control), ...Object.keys(builds)])
  const local: Dispatch = createDispatcher({
    routes: [...apiRoutes, ...createRoutes('control')].filter((route) => served.has(route.operationId)),
    tables: { api: builds, control },
    scenarios: { take: async () => null, resolveEmail: async () => undefined, sleep: async () => {} },
    authenticate: async () => ({ kind: 'none' }),
    journal: (entry, exchange) => journal.record(entry, exchange()),
    ...(options.log && { log: options.log }),
    ...(options.logError && { logError: options.logError }),
    guardControl: (request, path) => (path.startsWith('/__mock') ? guard(request) : null),
  })
  return {
    journal,
    matcher,
    async dispatch(raw) {
      const url = new URL(raw.url, 'http://replay.invalid')
      if (REPLAYED_PATHS.test(url.pathname)) return replay(raw, url)
      if (/^\/__mock(\/|$)/.test(url.pathname) && !isServedControl(url.pathname, raw.method)) {
        const refusal = guard(raw)
        if (refusal) return refusal
        return errorResponse(
          404,
          'not_found',
          `Replay mode (--replay) answers only GET /__mock/requests and POST /__mock/reset, not ${raw.method.toUpperCase()} ${url.pathname}.`,
        )
      }
      return local(raw)
    },
  }

  async function replay(raw: RawRequest, url: URL): Promise<RawResponse> {
    const startedAt = performance.now()
    const method = raw.method.toUpperCase()
    const read =
      method === 'GET' || method === 'HEAD' ? new Uint8Array() : await raw.readBody(MAX_REPLAY_BODY_BYTES)
    if (typeof read === 'string') return refuseBody(read)
    const body = UTF8.decode(read)
    const query = [...url.searchParams]
    const result = matcher.take({
      method,
      path: url.pathname,
      query,
      contentType: raw.headers['content-type'],
      body,
    })
    const response = result.call
      ? answerWith(result.call)
      : errorResponse(
          501,
          'replay_no_match',
          `No recorded answer for ${method} ${url.pathname}${redactSearch(url.search)}: ${result.reason}.`,
        )
    const durationMs = performance.now() - startedAt
    const parsed = parseBody(body)
    const operation = apiRoutes.find((route) => route.method === method && route.pattern.test(url.pathname))
    const email = emailOf(parsed)
    await journal.record(
      {
        method,
        path: url.pathname,
        ...(operation && { operation: operation.operationId }),
        status: response.status,
        ...(email !== undefined && { email }),
        replay: result.call ? { matched: true, entry: result.call.index } : { matched: false },
      },
      toExchange({
        origin: raw.origin,
        url: raw.url,
        headers: raw.headers,
        body: parsed,
        response,
        durationMs: Math.round(durationMs * 1000) / 1000,
      }),
    )
    const how = result.call
      ? response.dropped
        ? `(replayed entry ${result.call.index}: no answer)`
        : `(replayed entry ${result.call.index})`
      : '(no recorded answer)'
    options.log?.(`${method} ${url.pathname} ${response.status} ${how} ${Math.round(durationMs)}ms`)
    return response
  }
}

function isServedControl(path: string, method: string): boolean {
  const verb = method.toUpperCase()
  return (path === '/__mock/requests' && verb === 'GET') || (path === '/__mock/reset' && verb === 'POST')
}

/** The recorded answer as the host sends it. */
export function answerWith(call: RecordedCall): RawResponse {
  const { status, headers: recorded, body } = call.response
  // A request that got no answer (a browser writes -1 or 0): the connection is dropped, as it was then; so is any
  // status no file read by har-file.ts holds (below 200, above 599).
  if (status < 200 || status > 599) return { status, headers: {}, body: undefined, dropped: true }
  const headers: Record<string, string | string[]> = {}
  const cookies: string[] = []
  for (const [name, value] of recorded) {
    // Checked again here for a LoadedHar not read by har-file.ts: a value Node refuses is never sent.
    if (!REPLAYED_HEADERS.has(name) || !isSendableHeader(name, value)) continue
    if (name === 'set-cookie') {
      // A redacted cookie has lost its value: it is not set. A recorded Domain would name the recorded backend.
      if (!value.includes('[redacted]')) cookies.push(value.replace(/;\s*domain=[^;]*/i, ''))
    } else {
      headers[name] = value
    }
  }
  if (cookies.length > 0) headers['set-cookie'] = cookies
  const bodyless = status === 204 || status === 304 || body === undefined
  if (!bodyless && headers['content-type'] === undefined && body.mimeType !== 'x-unknown')
    headers['content-type'] = body.mimeType
  headers['cache-control'] ??= 'no-store'
  // Bytes (base64 in the file) go as they are, byte for byte; the host states their length and may compress them.
  return { status, headers, body: bodyless ? undefined : 'bytes' in body ? body.bytes : body.text }
}

function refuseBody(reason: 'too_large' | 'unsupported_encoding' | 'unreadable'): RawResponse {
  if (reason === 'too_large')
    return errorResponse(413, 'payload_too_large', `Send at most ${MAX_REPLAY_BODY_BYTES} bytes.`)
  if (reason === 'unsupported_encoding')
    return errorResponse(415, 'unsupported_media_type', 'Send the body as gzip, deflate or unencoded.')
  return errorResponse(400, 'bad_request', 'The request could not be read.')
}

/** The body as the journal keeps it: parsed JSON, or the text; undefined for none. */
function parseBody(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

function emailOf(body: unknown): string | undefined {
  const email = typeof body === 'object' && body !== null ? (body as { email?: unknown }).email : undefined
  return typeof email === 'string' ? email.trim().toLowerCase() : undefined
}
