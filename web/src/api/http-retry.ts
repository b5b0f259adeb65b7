// The HTTP retry rule (docs/behaviour.md: Calls), apart from the 401 rule. Only methods without a body are retried,
// once, on 408, 409, 425, 429, 500, 502, 503 or 504.

/** Statuses the HTTP client retries once, for methods without a body only (docs/behaviour.md: Calls). */
export const RETRY_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504]

/** Methods the HTTP client treats as carrying a body; never re-sent (docs/behaviour.md: Calls). */
export const BODY_METHODS: readonly string[] = ['PATCH', 'POST', 'PUT', 'DELETE']

export type FetchLike = (input: Request) => Promise<Response>

/** Whether a request of this method that got this status is sent once more. */
export function shouldRetry(method: string, status: number): boolean {
  return !BODY_METHODS.includes(method.toUpperCase()) && RETRY_STATUSES.includes(status)
}

/**
 * Wraps a fetch with the retry rule. The request is cloned before it is sent, so the retry sends it intact.
 * @example
 * const fetchWithRetry = withHttpRetry(globalThis.fetch.bind(globalThis))
 * await fetchWithRetry(new Request('/api/me')) // a 503 is tried once more
 */
export function withHttpRetry(fetch: FetchLike): FetchLike {
  return async (request) => {
    const replay = BODY_METHODS.includes(request.method.toUpperCase()) ? null : request.clone()
    const response = await fetch(request)
    if (replay === null || !shouldRetry(request.method, response.status)) return response
    void response.body?.cancel().catch(() => {}) // discard the refused answer; not awaited, it may never settle
    return fetch(replay) // once (docs/behaviour.md: Calls): whatever this answers is the answer
  }
}
