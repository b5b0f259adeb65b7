// The three calls the session store makes itself (docs/behaviour.md: Calls): read the cookie session, rotate the tokens, end the
// session. Plain openapi-fetch over the injected fetch: no bearer middleware, no HTTP retry (a failed refresh ends the
// session at once: docs/behaviour.md, Session).
import createClient from 'openapi-fetch'
import type { paths } from '#api/openapi.gen.ts'
import { API_CREDENTIALS } from '../api/client.ts'
import { LOGOUT_TIMEOUT_MS } from './constants.ts'
import { REFRESH_FAILED } from './session-machine.ts'
import type { TokenPair } from './token-storage.ts'
import { normalizeUser, type User } from './user.ts'

/**
 * @example
 * const calls = createSessionCalls({ fetch, baseUrl: 'https://app.example' })
 * const pair = await calls.refresh('r0') // throws Error('Token refresh failed') unless success and both tokens
 */
export function createSessionCalls({
  fetch,
  baseUrl,
  logoutTimeoutMs = LOGOUT_TIMEOUT_MS,
}: {
  fetch: (input: Request) => Promise<Response>
  baseUrl: string
  logoutTimeoutMs?: number
}) {
  const api = createClient<paths>({
    baseUrl,
    fetch: (request) => fetch(request),
    credentials: API_CREDENTIALS,
  })
  return {
    /** GET /api/_auth/session accepting JSON; any failure is an empty session (null). */
    async getSessionUser(): Promise<User | null> {
      try {
        const { data } = await api.GET('/api/_auth/session', { headers: { Accept: 'application/json' } })
        return normalizeUser(data?.user)
      } catch {
        return null
      }
    },
    /** POST /api/refresh_token; docs/behaviour.md: Refresh: success true and both tokens, else Error('Token refresh failed'). */
    async refresh(refreshToken: string): Promise<TokenPair> {
      try {
        const { data } = await api.POST('/api/refresh_token', { body: { refresh_token: refreshToken } })
        if (data?.success === true && data.token && data.refresh_token) {
          return { accessToken: data.token, refreshToken: data.refresh_token }
        }
      } catch (cause) {
        throw new Error(REFRESH_FAILED, { cause })
      }
      throw new Error(REFRESH_FAILED)
    },
    /**
     * DELETE /api/_auth/session. Failures are ignored, and the answer is given up after `logoutTimeoutMs`,
     * so a log-out never hangs on "Signing out…".
     */
    async deleteSession(accessToken: string | null): Promise<void> {
      try {
        await api.DELETE('/api/_auth/session', {
          headers: accessToken ? { Authorization: `Bearer ${accessToken}` } : {},
          signal: AbortSignal.timeout(logoutTimeoutMs),
        })
      } catch {
        // the local session is cleared whatever the server says
      }
    },
  }
}
