// CORS for the app on its own origin (docs/decisions/020-deploying-on-two-origins.md).
// Only --cors-origin origins get CORS headers, so the browser hides answers from any other page.
// The control surface keeps its own rules (control-guard.ts, `x-cors`).
import { CORS_MAX_AGE_SECONDS } from '../shared/constants.ts'
import { errorResponse, type RawRequest, type RawResponse } from './raw.ts'

/** The origins named with --cors-origin, as browsers write them in `Origin` (parseCorsOrigins normalizes them). */
export type CorsOrigins = ReadonlySet<string>

/**
 * The headers the app sends (docs/behaviour.md: Calls), with the error reporter's tracing headers
 * (web/src/lib/monitoring/error-reporting.ts). `Accept` is CORS-safelisted, so it needs no leave.
 */
export const CORS_ALLOWED_HEADERS = 'Authorization, Content-Type, sentry-trace, baggage'

/**
 * Whether the request comes from a named origin. Its cookie is then set for a cross-site context, and its
 * log-out is not treated as cross-site (product/operations/session.ts).
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
 * The answer to a preflight, or null when the request is no preflight (a plain OPTIONS stays a 405).
 * A named origin gets 204. Any other gets 403 `cross_site_request` and no CORS header, so the browser's check fails.
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

/** Adds CORS headers for a named origin; other requests get only `Vary: Origin`, since the answer depends on it. */
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
