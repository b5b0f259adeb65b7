// Which recorded call answers a request under --replay (docs/decisions/017-har-record-and-replay.md).
// Method, path, query and body must match; the origin, headers and cookies are ignored, so any recording replays.
// A recorded call with no body matches any body, since browsers leave some out. Secrets match any value
// (pipeline/redact.ts), since an exported HAR has them redacted. Several matches are served in recorded order.
import { REDACTED, isSecretName } from '../pipeline/redact.ts'
import type { RecordedCall } from './har-file.ts'

/** A request as the matcher compares it. */
export interface IncomingCall {
  method: string
  path: string
  query: [string, string][]
  /** The Content-Type header, when sent. */
  contentType?: string | undefined
  /** The body as text ('' for none). */
  body: string
}

export type MatchResult = { call: RecordedCall } | { call: null; reason: string }

export interface ReplayMatcher {
  take(request: IncomingCall): MatchResult
  /** Every recorded call can be served again, from the first. */
  rewind(): void
}

export function createReplayMatcher(calls: readonly RecordedCall[]): ReplayMatcher {
  const served = new Set<RecordedCall>()
  return {
    take(request) {
      const samePath = calls.filter((call) => call.method === request.method && call.path === request.path)
      const matching = samePath.filter((call) => matchesCall(call, request))
      const next = matching.find((call) => !served.has(call)) ?? matching.at(-1)
      if (next) {
        served.add(next)
        return { call: next }
      }
      const reason =
        samePath.length === 0
          ? `nothing was recorded for ${request.method} ${request.path}`
          : `${samePath.length} call${samePath.length === 1 ? ' was' : 's were'} recorded for ${request.method} ${request.path}, none with this query and body`
      return { call: null, reason }
    },
    rewind: () => served.clear(),
  }
}

/** Whether a recorded call answers this request (method and path, query, body). */
export function matchesCall(call: RecordedCall, request: IncomingCall): boolean {
  if (call.method !== request.method || call.path !== request.path) return false
  if (!matchPairs(call.query, request.query)) return false
  // The body of a refused request was left out, not absent: a request with a body is not that refused call.
  if (call.bodyOmitted === 'refused' && call.body === undefined) return request.body === ''
  return matchBody(call.body, request)
}

/** Name-value pairs in any order: the same names as often, each value equal, or a secret or `[redacted]`. */
export function matchPairs(
  recorded: readonly [string, string][],
  actual: readonly [string, string][],
): boolean {
  if (recorded.length !== actual.length) return false
  const left = [...actual]
  // The exact values first, then the wildcards take whatever values of their name are left.
  const wildcards: string[] = []
  for (const [name, value] of recorded) {
    if (value === REDACTED || isSecretName(name)) {
      wildcards.push(name)
      continue
    }
    const index = left.findIndex(([otherName, otherValue]) => otherName === name && otherValue === value)
    if (index === -1) return false
    left.splice(index, 1)
  }
  for (const name of wildcards) {
    const index = left.findIndex(([otherName]) => otherName === name)
    if (index === -1) return false
    left.splice(index, 1)
  }
  return left.length === 0
}

function matchBody(recorded: RecordedCall['body'], request: IncomingCall): boolean {
  // No body in the file: none was sent, or the recorder left it out (Chromium does for the app's fetches, see the
  // ADR); either way there is nothing to compare.
  if (recorded === undefined) return true
  const recordedText = recorded.text
  if (recordedText === '' || request.body === '') return recordedText === request.body
  const type = mediaType(recorded.mimeType || request.contentType)
  if (type === 'application/x-www-form-urlencoded') {
    return matchPairs([...new URLSearchParams(recordedText)], [...new URLSearchParams(request.body)])
  }
  const recordedJson = parseJson(recordedText)
  const actualJson = parseJson(request.body)
  if (recordedJson.ok && actualJson.ok) return matchJson(recordedJson.value, actualJson.value)
  return recordedText === request.body
}

/** JSON deep-equal, with a recorded `[redacted]` and every secret field matching any value the request sends. */
export function matchJson(recorded: unknown, actual: unknown, name?: string): boolean {
  if (recorded === REDACTED) return actual !== undefined
  if (name !== undefined && isSecretName(name) && recorded !== null && typeof recorded !== 'boolean')
    return actual !== undefined
  if (Array.isArray(recorded)) {
    return (
      Array.isArray(actual) &&
      recorded.length === actual.length &&
      recorded.every((item, index) => matchJson(item, actual[index]))
    )
  }
  if (typeof recorded === 'object' && recorded !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false
    const recordedKeys = Object.keys(recorded)
    const actualFields = actual as Record<string, unknown>
    if (recordedKeys.length !== Object.keys(actualFields).length) return false
    return recordedKeys.every(
      (key) =>
        Object.hasOwn(actualFields, key) &&
        matchJson((recorded as Record<string, unknown>)[key], actualFields[key], key),
    )
  }
  return recorded === actual
}

function mediaType(value: string | undefined): string {
  return (value ?? '').split(';')[0]!.trim().toLowerCase()
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown }
  } catch {
    return { ok: false }
  }
}
