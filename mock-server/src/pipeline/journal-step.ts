// What a call leaves behind (pipeline/dispatch.ts): its journal entry (product API calls only, for /__mock/requests) with
// its exchange redacted (pipeline/exchange.ts), and its log line; a refused control call and a fault leave a line of
// their own. Never a token, password or code.
import { toExchange, type Exchange } from './exchange.ts'
import type { JournalEntry } from './journal.ts'
import type { Route } from './openapi-docs.ts'
import { describeFault } from './fault-line.ts'
import { ServiceUnavailableError } from '../shared/unavailable.ts'
import type { RawRequest, RawResponse } from './raw.ts'

/** A call as the journal records it; the journal numbers and dates it (pipeline/journal.ts). */
export type JournalRecord = Omit<JournalEntry, 'seq' | 'at'>

/** A routed call's answer, with the account and scenario it ran under, for the journal. */
export interface Outcome {
  response: RawResponse
  email?: string
  scenario?: string
  /** The decoded request body, when the operation read one. */
  body?: unknown
}

export interface CallRecorders {
  /** Keeps the entry; what it returns is awaited before the answer goes (see `recordCall`). */
  journal(entry: JournalRecord, exchange: () => Exchange): unknown
  log?: ((line: string) => void) | undefined
  /** One line per 500 (pipeline/fault-line.ts), even when `log` is off. */
  logError?: ((line: string) => void) | undefined
}

export function recordRefusal(
  recorders: CallRecorders,
  raw: RawRequest,
  url: URL,
  refusal: RawResponse,
): void {
  recorders.log?.(`${raw.method.toUpperCase()} ${url.pathname} ${refusal.status} (control refused)`)
}

export function recordFault(recorders: CallRecorders, route: Route, url: URL, error: unknown): void {
  const status = error instanceof ServiceUnavailableError ? 503 : 500
  recorders.logError?.(
    describeFault(`${route.method} ${url.pathname} ${status} in ${route.operationId}`, error),
  )
}

/**
 * The entry is kept before the answer goes: a client that reads /__mock/requests once it has its answer, through
 * any instance sharing the journal, must find the call there. That costs one write in development (production
 * journals nothing); a write that fails leaves one line, and the answer goes as it was.
 */
export async function recordCall(
  recorders: CallRecorders,
  route: Route,
  raw: RawRequest,
  url: URL,
  outcome: Outcome,
  startedAt: number,
): Promise<void> {
  const durationMs = performance.now() - startedAt
  if (route.document === 'api') {
    await journalCall(recorders, route, raw, url, outcome, durationMs)
  }
  const dropped = outcome.response.dropped ? ' (answer dropped)' : ''
  recorders.log?.(
    `${route.method} ${url.pathname} ${outcome.response.status}${dropped} ${Math.round(durationMs)}ms`,
  )
}

async function journalCall(
  recorders: CallRecorders,
  route: Route,
  raw: RawRequest,
  url: URL,
  outcome: Outcome,
  durationMs: number,
): Promise<void> {
  const { status } = outcome.response
  try {
    await recorders.journal(
      {
        method: route.method,
        path: url.pathname,
        operation: route.operationId,
        status,
        ...(outcome.email !== undefined && { email: outcome.email }),
        ...(outcome.scenario !== undefined && { scenario: outcome.scenario }),
      },
      // Built only where the journal keeps it (not in production mode).
      () =>
        toExchange({
          origin: raw.origin,
          url: raw.url,
          headers: raw.headers,
          body: outcome.body,
          response: outcome.response,
          durationMs: Math.round(durationMs * 1000) / 1000,
        }),
    )
  } catch (error) {
    recorders.logError?.(describeFault(`Failed to journal ${route.method} ${url.pathname} ${status}`, error))
  }
}
