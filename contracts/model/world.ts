/**
 * The real side of a model-based run: the server's validating agent (every answer checked against the documents),
 * its control client when the target has one, and the small helpers every command uses to send and judge.
 */
import type { Response, Test } from 'supertest'
import type { MockClient } from '#api/mock-client.ts'
import type { ContractAgent } from '#contracts/support/api.ts'
import type { Model } from '#contracts/model/model.ts'
import type { Moment } from '#contracts/model/time.ts'

export interface World {
  api: ContractAgent
  /** Null against a target without a usable /__mock: the commands that need it are not generated. */
  mock: MockClient | null
  /** Answers the model could not call exactly (a figure too close to call), so it accepted any documented one. */
  loose: number
  /** The commands this run executed, as they resolved (which tab, which account): the replay script's lines. */
  steps: string[]
}

/** Sends `test` and reads when it happened on the server's clock (real time plus the model's offset). */
export async function send(model: Model, test: Test): Promise<{ res: Response; at: Moment }> {
  const from = Date.now() + model.offsetMs
  const res = await test
  return { res, at: { from, to: Date.now() + model.offsetMs } }
}

/** An answer's status and error code, as the model states them. */
export interface Answer {
  status: number
  error?: string
}

/** Fields of an answer that hold a secret: failures print the answer, never a token or a code. */
const SECRET_FIELDS = new Set(['token', 'refresh_token', 'service_token', 'reset_token', 'code'])

const describe = (res: Response): string => {
  const body = JSON.stringify(res.body, (key, value: unknown) =>
    SECRET_FIELDS.has(key) && typeof value === 'string' ? '[redacted]' : value,
  )
  return `${res.status} ${body?.slice(0, 300) ?? ''}`.trim()
}

/**
 * Throws unless `res` is one of `allowed` (an `error` given must match the body's), naming the command.
 * @example requireAnswer('refresh(tab 0)', res, [{ status: 401, error: 'refresh_reused' }])
 */
export function requireAnswer(command: string, res: Response, allowed: Answer[]): Answer {
  const error = (res.body as { error?: unknown } | undefined)?.error
  const found = allowed.find(
    (answer) => answer.status === res.status && (answer.error === undefined || answer.error === error),
  )
  if (!found) {
    const expected = allowed.map((a) => (a.error ? `${a.status} ${a.error}` : String(a.status))).join(' or ')
    throw new Error(
      `The model expected ${command} to answer ${expected}; the server answered ${describe(res)}.`,
    )
  }
  return found
}

/** Throws with `message` (naming the command) unless `holds`. */
export function requireThat(command: string, holds: boolean, message: string): void {
  if (!holds) throw new Error(`${command}: ${message}`)
}

/** The `sid=…` pair of a Set-Cookie that sets the session cookie, or null. */
export function sessionCookieIn(res: Response): string | null {
  const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? [])
  const found = cookies.find((cookie) => /^(__Host-)?sid=[^;]/.test(cookie))
  return found ? found.split(';')[0]! : null
}

/** Whether the answer clears the session cookie (`Max-Age=0` or an expiry in the past). */
export function clearsSessionCookie(res: Response): boolean {
  const cookies = ([] as string[]).concat((res.headers['set-cookie'] as string[] | string | undefined) ?? [])
  return cookies.some(
    (cookie) =>
      /^(__Host-)?sid=;/.test(cookie) &&
      (/;\s*Max-Age=0\b/i.test(cookie) || /;\s*Expires=Thu, 01 Jan 1970/i.test(cookie)),
  )
}
