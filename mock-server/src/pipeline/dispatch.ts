// The one request pipeline, one step a module: match.ts, read-input.ts, validate.ts, scenario-step.ts,
// authorize.ts, the operation, serialize.ts, journal-step.ts, and cors.ts for other origins.
// Every host adapts to this function (raw.ts), so every way in behaves alike.
import type { AuthState, HandlerMap, RequestFacts } from './types.ts'
import { authorize, readBearer } from './authorize.ts'
import { addCorsHeaders, isAllowedOrigin, type CorsOrigins } from './cors.ts'
import { recordCall, recordFault, recordRefusal, type CallRecorders, type Outcome } from './journal-step.ts'
import { matchRoute, type ControlGuard } from './match.ts'
import type { DocumentName, Route } from './openapi-docs.ts'
import { errorResponse, parseCookies, requestUrl, type RawRequest, type RawResponse } from './raw.ts'
import { readInput } from './read-input.ts'
import { applyScenario, createArrivalOrder, type ScenarioHooks } from './scenario-step.ts'
import { serialize } from './serialize.ts'
import { ServiceUnavailableError, UNAVAILABLE_RETRY_AFTER_S } from '../shared/unavailable.ts'

export interface DispatcherOptions extends CallRecorders {
  routes: Route[]
  /** Each document's operations by operationId (a typed `OperationTable` is a HandlerMap as it is). */
  tables: Record<DocumentName, HandlerMap>
  scenarios: ScenarioHooks
  authenticate(token: string): Promise<AuthState>
  /** Refuses /__mock or /idp requests their owner did not make (pipeline/control-guard.ts); absent in production. */
  guardControl?: ControlGuard
  /** The origins whose pages may call the product API, credentials included (--cors-origin); none by default. */
  corsOrigins?: CorsOrigins
}

export type Dispatch = (request: RawRequest) => Promise<RawResponse | null>

/** Returns null for a path no document describes, so a host can serve something else there. */
export function createDispatcher(options: DispatcherOptions): Dispatch {
  const corsOrigins: CorsOrigins = options.corsOrigins ?? new Set()
  // Without a --cors-origin, answers go out exactly as before (no Vary: Origin).
  const withCors = (raw: RawRequest, response: RawResponse) =>
    corsOrigins.size > 0 ? addCorsHeaders(corsOrigins, raw, response) : response
  const takeInOrder = createArrivalOrder()
  return async (raw) => {
    const url = requestUrl(raw)
    const match = matchRoute(options.routes, raw, url, options.guardControl, corsOrigins)
    if (match.kind === 'refused') recordRefusal(options, raw, url, match.response)
    if (match.kind === 'answered' && url.pathname.startsWith('/api/')) return withCors(raw, match.response)
    if (match.kind !== 'route') return match.kind === 'elsewhere' ? null : match.response
    const { route } = match
    const startedAt = raw.receivedAt ?? performance.now()
    const crossOrigin = isAllowedOrigin(corsOrigins, raw.headers)
    const outcome = await runRoute(options, takeInOrder, route, raw, url, crossOrigin).catch(
      (error: unknown): Outcome => {
        recordFault(options, route, url, error)
        return { response: faultResponse(error) }
      },
    )
    await recordCall(options, route, raw, url, outcome, startedAt)
    return route.document === 'api' ? withCors(raw, outcome.response) : outcome.response
  }
}

/** A call that failed: 503 with Retry-After while the database is out of reach, else 500 `internal_error`. */
export function faultResponse(error: unknown): RawResponse {
  if (!(error instanceof ServiceUnavailableError))
    return errorResponse(500, 'internal_error', 'Something went wrong on our side.')
  const response = errorResponse(503, 'service_unavailable', 'The service is unavailable. Try again shortly.')
  return { ...response, headers: { ...response.headers, 'retry-after': String(UNAVAILABLE_RETRY_AFTER_S) } }
}

async function runRoute(
  options: DispatcherOptions,
  takeInOrder: ReturnType<typeof createArrivalOrder>,
  route: Route,
  raw: RawRequest,
  url: URL,
  crossOrigin: boolean,
): Promise<Outcome> {
  const input = await readInput(route, raw, url)
  if ('response' in input) return input
  const handler = options.tables[route.document][route.operationId]
  if (!handler) throw new Error(`Failed to dispatch: no handler for ${route.operationId}.`)
  const bearer = readBearer(raw.headers)
  const call = { ...input, request: describeRequest(route, raw, url, crossOrigin) }
  const run = async () =>
    (await authorize(route.bearer, call.request, bearer, options.authenticate)) ?? handler(call)
  // Scenarios and the journal are the product API's; the control surface just runs.
  if (route.document !== 'api') return { response: serialize(route, await run(), raw, { crossOrigin }) }
  const { prepared: email, taken } = await takeInOrder(
    // The call is the account it answers for: an operation whose security names no bearer never reads one.
    () => options.scenarios.resolveEmail(call, route.bearer === 'none' ? undefined : bearer),
    (email) =>
      options.scenarios.take({ operation: route.operationId, email, hasBearer: bearer !== undefined }),
  )
  const { output, scenario, dropped } = await applyScenario(options.scenarios, taken, run)
  return {
    response: serialize(route, output, raw, { ...(dropped && { dropped }), crossOrigin }),
    ...(email !== undefined && { email }),
    ...(scenario && { scenario }),
    ...(input.body !== undefined && { body: input.body }),
  }
}

function describeRequest(route: Route, raw: RawRequest, url: URL, crossOrigin: boolean): RequestFacts {
  return {
    method: route.method,
    path: url.pathname,
    headers: raw.headers,
    cookies: parseCookies(raw.headers.cookie),
    ip: raw.ip,
    secure: raw.secure,
    origin: raw.origin,
    fromCorsOrigin: crossOrigin,
    auth: { kind: 'none' },
  }
}
