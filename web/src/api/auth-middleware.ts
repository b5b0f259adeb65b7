// The 401 rule of spec 4 and 8 as an openapi-fetch middleware: a Bearer header when an access token exists; a 401
// with `token_expired` or no code triggers one (shared) refresh and one retry; anything else ends the session.
// It never toasts or navigates itself: it reports to the session, which does.
import type { Middleware } from 'openapi-fetch'
import type { ErrorBody } from './error-messages.ts'

/** What the middleware needs from the session store. */
export interface AuthSession {
  getAccessToken(): string | null
  /** The token to retry with after a 401 on a request sent with `staleToken`; single flight; rejects on failure. */
  refreshAccessToken(staleToken: string): Promise<string>
  /** A 401 that ends the session; the session clears tokens, stops the timer, toasts and navigates. */
  reportUnauthorized(body: ErrorBody | null): void
}

/** Calls that never carry the access token, so never take part in the 401 rule (DESIGN.md). */
const PUBLIC_PATHS = new Set([
  '/api/_auth/session',
  '/api/refresh_token',
  '/api/auth/login',
  '/api/auth/signup',
  '/api/auth/otp/send',
  '/api/auth/otp/verify',
  '/api/auth/forgot',
  '/api/auth/callback',
  '/api/auth/external/authorize',
])
const UPDATE_PASSWORD_PATH = '/api/auth/update_password'

async function readErrorBody(response: Response): Promise<ErrorBody | null> {
  try {
    const body: unknown = await response.clone().json()
    return typeof body === 'object' && body !== null ? (body as ErrorBody) : null
  } catch {
    return null
  }
}

async function isPublic(schemaPath: string, request: Request): Promise<boolean> {
  if (PUBLIC_PATHS.has(schemaPath)) return true
  if (schemaPath !== UPDATE_PASSWORD_PATH) return false
  // update_password is public with a reset_token, protected with a current_password.
  try {
    const body: unknown = JSON.parse(await request.clone().text())
    return typeof body === 'object' && body !== null && 'reset_token' in body
  } catch {
    return false
  }
}

/**
 * @example
 * const client = createClient<paths>({ fetch })
 * client.use(createAuthMiddleware({ session }))
 */
export function createAuthMiddleware({ session }: { session: AuthSession }): Middleware {
  // Per request id: the token it carried and an untouched copy to retry with (the body survives).
  const sent = new Map<string, { token: string; replay: Request }>()
  return {
    async onRequest({ request, schemaPath, id }) {
      const token = session.getAccessToken()
      if (token === null || (await isPublic(schemaPath, request))) return undefined
      request.headers.set('Authorization', `Bearer ${token}`)
      sent.set(id, { token, replay: request.clone() })
      return request
    },
    async onResponse({ response, id, options }) {
      const entry = sent.get(id)
      sent.delete(id)
      if (!entry || response.status !== 401) return undefined
      const body = await readErrorBody(response)
      if (body?.error && body.error !== 'token_expired') {
        session.reportUnauthorized(body)
        return undefined
      }
      let token: string
      try {
        token = await session.refreshAccessToken(entry.token)
      } catch {
        return undefined // the session has already handled the failed refresh
      }
      entry.replay.headers.set('Authorization', `Bearer ${token}`)
      const retried = await options.fetch(entry.replay)
      if (retried.status === 401) session.reportUnauthorized(await readErrorBody(retried))
      return retried
    },
    onError({ id }) {
      sent.delete(id)
      return undefined
    },
  }
}
