// Cross-origin calls to the product API (docs/decisions/020-deploying-on-two-origins.md): the web app served from
// its own origin (a static host or CDN) calls the API on another. Only the origins the server was started with
// (--cors-origin) are answered with CORS headers, credentials included; any other origin gets none, so the browser
// keeps the answer from the page, and its preflight is refused. A request with no Origin (same-origin GETs, curl,
// the suites) is answered as it always was. The control surface and its sinks keep their own rules (control-guard.ts,
// `x-cors`): nothing here applies to them.
import { CORS_MAX_AGE_SECONDS } from '../shared/constants.ts'
import { errorResponse, type RawRequest, type RawResponse } from './raw.ts'

/** The origins named with --cors-origin, as browsers write them in `Origin` (parseCorsOrigins normalizes them). */
export type CorsOrigins = ReadonlySet<string>

/**
 * The request headers the app sends (docs/behaviour.md: Calls): the bearer, the JSON body's type, and the tracing
 * headers the error reporter adds to calls to localhost (web/src/lib/monitoring/error-reporting.ts). `Accept` needs no
 * leave (a CORS-safelisted header).
 */
export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, sentry-trace, baggage'

/**
 * Whether the request comes from one of the named origins: the app deployed on its own origin. Its cookie is then
 * set for a cross-site context, and its log-out is not a cross-site request (product/operations/session.ts).
 * @example isAllowedOrigin(new Set(['https://app.example']), { origin: 'https://app.example' }) // true
 */
export function isAllowedOrigin(origins: CorsOrigins, headers: RawRequest['headers']): boolean {
  const origin = headers.origin
  return origin !== undefined && origins.has(origin)
}

/** A CORS preflight (Fetch standard: OPTIONS with Origin and Access-Control-Request-Method), not a plain OPTIONS. */
function isPreflight(raw: RawRequest): boolean {
  return (
    raw.method.toUpperCase() === 'OPTIONS' &&
    raw.headers.origin !== undefined &&
    raw.headers['access-control-request-method'] !== undefined
  )
}

/**
 * The answer to a preflight for a path of the product API that takes `methods`, or null when the request is no
 * preflight (it goes on as before: a plain OPTIONS is a 405). A named origin gets 204 with the methods of the path
 * and the headers the app sends; any other gets 403 `cross_site_request` and no CORS header, which fails the
 * browser's check.
 * @example
 * answerPreflight(origins, { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'DELETE' }, ... }, ['GET', 'DELETE'])
 * // { status: 204, headers: { 'access-control-allow-origin': 'https://app.example', ... } }
 */
export function answerPreflight(
  origins: CorsOrigins,
  raw: RawRequest,
  methods: readonly string[],
): RawResponse | null {
  if (!isPreflight(raw)) return null
  if (!isAllowedOrigin(origins, raw.headers)) {
    const refused = errorResponse(403, 'cross_site_request', 'This API takes no calls from that origin.')
    refused.headers.vary = 'Origin'
    return refused
  }
  return {
    status: 204,
    headers: {
      ...credentialedHeaders(raw.headers.origin!),
      'access-control-allow-methods': methods.join(', '),
      'access-control-allow-headers': CORS_ALLOWED_HEADERS,
      'access-control-max-age': String(CORS_MAX_AGE_SECONDS),
      'cache-control': 'no-store',
    },
    body: undefined,
  }
}

/**
 * Adds the CORS headers to an answer of the product API: for a named origin, that origin with credentials; for any
 * other request, only `Vary: Origin`, since the same URL is answered differently by origin.
 */
export function addCorsHeaders(origins: CorsOrigins, raw: RawRequest, response: RawResponse): RawResponse {
  const allowed = isAllowedOrigin(origins, raw.headers)
  const headers = allowed ? credentialedHeaders(raw.headers.origin!) : {}
  const vary = response.headers.vary === undefined ? '' : String(response.headers.vary)
  const varies = vary === '' ? 'Origin' : /(^|,)\s*origin\s*(,|$)/i.test(vary) ? vary : `${vary}, Origin`
  return { ...response, headers: { ...response.headers, ...headers, vary: varies } }
}

function credentialedHeaders(origin: string): Record<string, string> {
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    vary: 'Origin',
  }
}
