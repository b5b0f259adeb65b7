// The 401 rule as an openapi-fetch middleware (docs/session-life-cycle.md): a Bearer header when an access token
// exists; a 401 goes to the session, which answers with a token to retry with once, or with null when the 401
// stands. It never toasts or navigates itself, nor decides which 401 leads where: the session machine does.
import type { Middleware } from 'openapi-fetch'
import type { ErrorBody } from './error-messages.ts'

/** What the middleware needs from the session store; the store's machine decides what each 401 leads to. */
export interface AuthSession {
  getAccessToken(): string | null
  /** The session's generation now: a call remembers the one it was sent in. */
  getGeneration(): number
  /**
   * A 401 of a call sent with `sent.token` in `sent.generation`: resolves to the token to retry with (after one
   * shared refresh, or the current one if the tokens rotated since), or null when the 401 stands (the session has
   * ended, toasted and navigated as the error catalogue says, or had already ended).
   */
  handleUnauthorized(
    sent: { generation: number; token: string },
    body: ErrorBody | null,
  ): Promise<string | null>
  /** The retried call's answer: a second 401 ends the session, unless it had already ended. */
  handleRetried(generation: number, status: number, body: ErrorBody | null): void
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

/** A JSON object's fields, or none (a body that is not a JSON object reads as no fields). */
async function readFields(message: Request | Response): Promise<Record<string, unknown>> {
  try {
    return { ...((await message.clone().json()) as Record<string, unknown>) }
  } catch {
    return {}
  }
}

/** The `error` and `message` of a refusal, each only when it is a text. */
async function readErrorBody(response: Response): Promise<ErrorBody> {
  const { error, message } = await readFields(response)
  return {
    ...(typeof error === 'string' && { error }),
    ...(typeof message === 'string' && { message }),
  }
}

async function isPublic(schemaPath: string, request: Request): Promise<boolean> {
  if (PUBLIC_PATHS.has(schemaPath)) return true
  // update_password is public with a reset_token, protected with a current_password.
  return schemaPath === UPDATE_PASSWORD_PATH && (await readFields(request)).reset_token !== undefined
}

/**
 * @example
 * const client = createClient<paths>({ fetch })
 * client.use(createAuthMiddleware({ session }))
 */
export function createAuthMiddleware({ session }: { session: AuthSession }): Middleware {
  // Per request: what it was sent with, and an untouched copy to retry with (the body survives). Keyed by the
  // request object itself, so an entry goes with its request, answered or not.
  const sent = new WeakMap<Request, { token: string; generation: number; replay: Request }>()
  return {
    async onRequest({ request, schemaPath }) {
      const token = session.getAccessToken()
      if (token === null || (await isPublic(schemaPath, request))) return undefined
      request.headers.set('Authorization', `Bearer ${token}`)
      sent.set(request, { token, generation: session.getGeneration(), replay: request.clone() })
      return request
    },
    async onResponse({ request, response, options }) {
      const entry = sent.get(request)
      if (!entry || response.status !== 401) return undefined
      const token = await session.handleUnauthorized(entry, await readErrorBody(response))
      if (token === null) return undefined
      entry.replay.headers.set('Authorization', `Bearer ${token}`)
      const retried = await options.fetch(entry.replay)
      session.handleRetried(entry.generation, retried.status, await readErrorBody(retried))
      return retried
    },
  }
}
