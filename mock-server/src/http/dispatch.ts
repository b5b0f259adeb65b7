// The host-independent request pipeline: route by the OpenAPI documents, check the media type, size and
// schema of the input, apply armed scenarios, authenticate bearer calls, run the operation, journal it.
// Express and MSW both adapt to this one function, so every host behaves alike.
import type { AnyHandler, AnyOutput, AuthState, RequestFacts } from '../operations/types.ts'
import { serializeCookie } from './cookies.ts'
import { describeErrors, type Route } from './openapi-docs.ts'
import { errorResponse, jsonResponse, parseCookies, type RawRequest, type RawResponse } from './raw.ts'
import { applyScenario, type ScenarioHooks } from './scenario-step.ts'
import { describeFault } from './fault-line.ts'

export interface DispatcherOptions {
  routes: Route[]
  tables: Record<string, Record<string, AnyHandler>>
  scenarios: ScenarioHooks
  authenticate(token: string): Promise<AuthState>
  journal(entry: {
    method: string
    path: string
    operation?: string
    status: number
    email?: string
    scenario?: string
  }): void
  log?: (line: string) => void
  /** One line per 500 (http/fault-line.ts), even when `log` is off. */
  logError?: (line: string) => void
  /**
   * Refuses a /__mock or /idp request its owner did not make (http/control-guard.ts); absent when there is
   * neither (production mode).
   */
  guardControl?: (request: RawRequest, path: string) => RawResponse | null
}

export type Dispatch = (request: RawRequest) => Promise<RawResponse | null>

/** Returns null for a path no document describes, so a host can serve something else there. */
export function createDispatcher(options: DispatcherOptions): Dispatch {
  return async (raw) => {
    const url = new URL(raw.url, 'http://mock.invalid')
    // Before routing: a refused request learns nothing, not even which control paths exist.
    const refusal = /^\/(__mock|idp)(\/|$)/.test(url.pathname)
      ? options.guardControl?.(raw, url.pathname)
      : null
    if (refusal) {
      options.log?.(`${raw.method.toUpperCase()} ${url.pathname} ${refusal.status} (control refused)`)
      return refusal
    }
    const candidates = options.routes.filter((route) => route.pattern.test(url.pathname))
    if (candidates.length === 0) {
      return url.pathname.startsWith('/api/') || url.pathname.startsWith('/__mock/')
        ? errorResponse(404, 'not_found', `No operation at ${url.pathname}.`)
        : null
    }
    const route = candidates.find((candidate) => candidate.method === raw.method.toUpperCase())
    if (!route && raw.method.toUpperCase() === 'OPTIONS' && candidates.some((candidate) => candidate.cors)) {
      return { status: 204, headers: corsHeaders(raw.headers.origin), body: undefined }
    }
    if (!route) {
      const allow = candidates.map((candidate) => candidate.method).join(', ')
      // RFC 9110 section 15.5.6: a 405 lists the methods the resource takes.
      return jsonResponse(
        405,
        { error: 'method_not_allowed', message: `Use ${allow} for ${url.pathname}.` },
        { allow },
      )
    }
    const started = performance.now()
    const outcome = await runRoute(options, route, raw, url).catch((error: unknown) => {
      options.logError?.(describeFault(`${route.method} ${url.pathname} 500 in ${route.operationId}`, error))
      return {
        response: errorResponse(500, 'internal_error', 'Something went wrong on our side.'),
      } as Outcome
    })
    if (route.document === 'api') {
      options.journal({
        method: route.method,
        path: url.pathname,
        operation: route.operationId,
        status: outcome.response.status,
        ...(outcome.email !== undefined && { email: outcome.email }),
        ...(outcome.scenario !== undefined && { scenario: outcome.scenario }),
      })
    }
    const dropped = outcome.response.dropped ? ' (answer dropped)' : ''
    options.log?.(
      `${route.method} ${url.pathname} ${outcome.response.status}${dropped} ${Math.round(performance.now() - started)}ms`,
    )
    return outcome.response
  }
}

interface Outcome {
  response: RawResponse
  email?: string
  scenario?: string
}

async function runRoute(
  options: DispatcherOptions,
  route: Route,
  raw: RawRequest,
  url: URL,
): Promise<Outcome> {
  const parsed = await parseInput(route, raw, url)
  if ('response' in parsed) return parsed
  const headers = raw.headers
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1]
  const request: RequestFacts = {
    method: route.method,
    path: url.pathname,
    headers,
    cookies: parseCookies(headers.cookie),
    ip: raw.ip,
    secure: raw.secure,
    origin: raw.origin,
    auth: { kind: 'none' },
  }
  const handler = options.tables[route.document]?.[route.operationId]
  if (!handler) throw new Error(`Failed to dispatch: no handler for ${route.operationId}.`)
  const input = { ...parsed, request }
  const email =
    route.document === 'api' ? options.scenarios.resolveEmail(route.operationId, input, bearer) : undefined
  const run = async (): Promise<AnyOutput> => {
    if (bearer !== undefined) request.auth = await options.authenticate(bearer)
    const refusal = refuseUnauthenticated(route, request.auth)
    return refusal ?? handler(input)
  }
  const { output, scenario, dropped } =
    route.document === 'api'
      ? await applyScenario(
          options.scenarios,
          { operation: route.operationId, email, hasBearer: bearer !== undefined },
          run,
        )
      : { output: await run() }
  const response: RawResponse = { ...toRaw(output, raw.secure), ...(dropped && { dropped }) }
  if (route.cors) Object.assign(response.headers, corsHeaders(headers.origin))
  return { response, ...(email !== undefined && { email }), ...(scenario && { scenario }) }
}

type Parsed =
  { body: unknown; query: Record<string, unknown>; path: Record<string, unknown> } | { response: RawResponse }

async function parseInput(route: Route, raw: RawRequest, url: URL): Promise<Parsed> {
  const query = Object.fromEntries(url.searchParams.entries())
  if (!route.validateQuery(query)) return invalid(describeErrors(route.validateQuery.errors))
  const match = route.pattern.exec(url.pathname)
  const path = Object.fromEntries(
    route.pathNames.map((name, index) => [name, safeDecode(match?.[index + 1] ?? '')]),
  )
  if (!route.validatePath(path)) return invalid(describeErrors(route.validatePath.errors))
  // An operation that takes no body never reads one.
  if (!route.bodyType || !route.validateBody) return { body: undefined, query, path }
  // Binary bodies (the recorder's batches) come with whatever type the sender's fetch gave them.
  const binary = route.bodyType === 'application/octet-stream'
  const mediaType = raw.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
  if (!binary && mediaType !== route.bodyType) {
    return { response: errorResponse(415, 'unsupported_media_type', `Send the body as ${route.bodyType}.`) }
  }
  const bytes = await raw.readBody(route.maxBodyBytes)
  if (bytes === 'too_large') {
    return { response: errorResponse(413, 'payload_too_large', `Send at most ${route.maxBodyBytes} bytes.`) }
  }
  if (bytes === 'unsupported_encoding') {
    return {
      response: errorResponse(415, 'unsupported_media_type', 'Send the body as gzip, deflate or unencoded.'),
    }
  }
  if (bytes === 'unreadable') {
    return { response: errorResponse(400, 'bad_request', 'The request could not be read.') }
  }
  if (binary) return { body: bytes, query, path }
  const text = new TextDecoder().decode(bytes)
  const body = decodeBody(route.bodyType, text)
  if (body === undefined)
    return { response: errorResponse(400, 'invalid_json', 'The body is not valid JSON.') }
  if (!route.validateBody(body)) return invalid(describeErrors(route.validateBody.errors))
  return { body, query, path }
}

function decodeBody(type: string, text: string): unknown {
  if (type === 'application/x-www-form-urlencoded')
    return Object.fromEntries(new URLSearchParams(text).entries())
  if (type === 'text/plain') return text
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

function invalid(fields: Record<string, string>): { response: RawResponse } {
  const count = Object.keys(fields).length
  const message = count === 1 ? `${Object.entries(fields)[0]!.join(': ')}` : `${count} fields need attention.`
  return { response: errorResponse(400, 'validation_failed', message, { fields }) }
}

function corsHeaders(origin: string | undefined): Record<string, string> {
  return {
    'access-control-allow-origin': origin ?? '*',
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'authorization, content-type, content-encoding, datatype',
    'access-control-max-age': '600',
    vary: 'Origin',
  }
}

const UNAUTHORIZED_MESSAGES = {
  token_expired: 'The access token has expired.',
  token_invalid: 'The access token is invalid.',
  session_revoked: 'This session has ended. Please sign in again.',
} as const

/** The 401 of a call that needs a bearer token and did not bring a good one; null when it may go on. */
export function refuseUnauthenticated(route: Route, auth: AuthState): AnyOutput | null {
  const needsBearer =
    route.security.length > 0 && route.security.every((requirement) => requirement.includes('bearerAuth'))
  const optionalBearer = route.security.some((requirement) => requirement.includes('bearerAuth'))
  if (
    auth.kind === 'rejected' &&
    (needsBearer || (optionalBearer && route.operationId === 'updatePassword'))
  ) {
    return {
      status: 401,
      body: { error: auth.code, message: UNAUTHORIZED_MESSAGES[auth.code] },
      headers: { 'www-authenticate': `Bearer error="invalid_token", error_description="${auth.code}"` },
    }
  }
  if (auth.kind === 'none' && needsBearer) {
    return {
      status: 401,
      body: { message: 'Sign in to continue.' },
      headers: { 'www-authenticate': 'Bearer' },
    }
  }
  return null
}

function toRaw(output: AnyOutput, secure: boolean): RawResponse {
  const headers: Record<string, string | string[]> = { ...output.headers }
  if (output.cookies?.length)
    headers['set-cookie'] = output.cookies.map((cookie) => serializeCookie(cookie, secure))
  if (output.body === undefined) {
    return { status: output.status, headers: { 'cache-control': 'no-store', ...headers }, body: undefined }
  }
  if (typeof output.body === 'string') {
    return {
      status: output.status,
      headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...headers },
      body: output.body,
    }
  }
  return jsonResponse(output.status, output.body, headers)
}
