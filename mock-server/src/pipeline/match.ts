// Step one of the pipeline (pipeline/dispatch.ts): which operation a request is for. The control guard refuses
// first, so a refused request learns nothing, not even which control paths exist. Product preflights follow
// their own rule (pipeline/cors.ts).
import { answerPreflight, type CorsOrigins } from './cors.ts'
import type { Route } from './openapi-docs.ts'
import { errorResponse, jsonResponse, type RawRequest, type RawResponse } from './raw.ts'
import { corsHeaders } from './serialize.ts'

export type Match =
  | { kind: 'route'; route: Route }
  | { kind: 'refused'; response: RawResponse }
  | { kind: 'answered'; response: RawResponse }
  | { kind: 'elsewhere' }

export type ControlGuard = (request: RawRequest, path: string) => RawResponse | null

export function matchRoute(
  routes: readonly Route[],
  raw: RawRequest,
  url: URL,
  guardControl: ControlGuard | undefined,
  corsOrigins: CorsOrigins = new Set(),
): Match {
  const refusal = /^\/(__mock|idp)(\/|$)/.test(url.pathname) ? guardControl?.(raw, url.pathname) : null
  if (refusal) return { kind: 'refused', response: refusal }
  const candidates = routes.filter((route) => route.pattern.test(url.pathname))
  if (candidates.length === 0) {
    return url.pathname.startsWith('/api/') || url.pathname.startsWith('/__mock/')
      ? { kind: 'answered', response: errorResponse(404, 'not_found', `No operation at ${url.pathname}.`) }
      : { kind: 'elsewhere' }
  }
  const method = raw.method.toUpperCase()
  const route = candidates.find((candidate) => candidate.method === method)
  if (route) return { kind: 'route', route }
  const api = candidates.filter((candidate) => candidate.document === 'api')
  const preflight =
    method === 'OPTIONS' && api.length > 0
      ? answerPreflight(
          corsOrigins,
          raw,
          api.map((candidate) => candidate.method),
        )
      : null
  if (preflight) return { kind: 'answered', response: preflight }
  if (method === 'OPTIONS' && candidates.some((candidate) => candidate.cors)) {
    return {
      kind: 'answered',
      response: { status: 204, headers: corsHeaders(raw.headers.origin), body: undefined },
    }
  }
  const allow = candidates.map((candidate) => candidate.method).join(', ')
  // RFC 9110 section 15.5.6: a 405 lists the methods the resource takes.
  const body = { error: 'method_not_allowed', message: `Use ${allow} for ${url.pathname}.` }
  return { kind: 'answered', response: jsonResponse(405, body, { allow }) }
}
