// The 401 rule as an openapi-fetch middleware (docs/session-life-cycle.md). It adds the Bearer header and hands
// each 401 to the session, which decides. It never toasts or navigates.
import type { Middleware } from 'openapi-fetch'
import { API_OPERATIONS, type ApiOperationId } from '#api/operations.gen.ts'
import type { ErrorBody } from './error-messages.ts'

/** What the middleware needs from the session store; the store's machine decides what each 401 leads to. */
export interface AuthSession {
  getAccessToken(): string | null
  /** The session's generation now: a call remembers the one it was sent in. */
  getGeneration(): number
  /**
   * Handles a 401 of a call sent with `sent.token` in `sent.generation`.
   * Resolves to the token to retry with once, or null when the 401 stands.
   */
  handleUnauthorized(
    sent: { generation: number; token: string },
    body: ErrorBody | null,
  ): Promise<string | null>
  /** The retried call's answer: a second 401 ends the session, unless it had already ended. */
  handleRetried(generation: number, status: number, body: ErrorBody | null): void
}

/** How each path and method takes the bearer token, as openapi.yaml says (`security`, `x-optional-bearer`). */
const BEARER_RULES = new Map<string, (typeof API_OPERATIONS)[ApiOperationId]>(
  Object.values(API_OPERATIONS).map((operation) => [`${operation.method} ${operation.path}`, operation]),
)

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

/**
 * Whether a call goes without the access token, as the contract says.
 * A `checked` call goes without it only when its body has the named field (update_password: `reset_token`).
 */
async function isPublic(schemaPath: string, request: Request): Promise<boolean> {
  const rule = BEARER_RULES.get(`${request.method.toUpperCase()} ${schemaPath}`)
  if (!rule || rule.bearer === 'required') return false
  if (rule.bearer !== 'checked' || !('bearerOmittedWithField' in rule)) return true
  return (await readFields(request))[rule.bearerOmittedWithField] !== undefined
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
