// What a call leaves behind (http/dispatch.ts): its journal entry (product API calls only, for /__mock/requests) and
// its log line; a refused control call and a fault leave a line of their own. Never a token, password or code.
import type { JournalEntry } from '../control/journal.ts'
import type { Route } from './openapi-docs.ts'
import { describeFault } from './fault-line.ts'
import type { RawRequest, RawResponse } from './raw.ts'

/** A call as the journal records it; the journal numbers and dates it (control/journal.ts). */
export type JournalRecord = Omit<JournalEntry, 'seq' | 'at'>

/** A routed call's answer, with the account and scenario it ran under, for the journal. */
export interface Outcome {
  response: RawResponse
  email?: string
  scenario?: string
}

export interface CallRecorders {
  journal(entry: JournalRecord): void
  log?: ((line: string) => void) | undefined
  /** One line per 500 (http/fault-line.ts), even when `log` is off. */
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
  recorders.logError?.(describeFault(`${route.method} ${url.pathname} 500 in ${route.operationId}`, error))
}

export function recordCall(
  recorders: CallRecorders,
  route: Route,
  url: URL,
  outcome: Outcome,
  startedAt: number,
): void {
  if (route.document === 'api') {
    recorders.journal({
      method: route.method,
      path: url.pathname,
      operation: route.operationId,
      status: outcome.response.status,
      ...(outcome.email !== undefined && { email: outcome.email }),
      ...(outcome.scenario !== undefined && { scenario: outcome.scenario }),
    })
  }
  const dropped = outcome.response.dropped ? ' (answer dropped)' : ''
  recorders.log?.(
    `${route.method} ${url.pathname} ${outcome.response.status}${dropped} ${Math.round(performance.now() - startedAt)}ms`,
  )
}
