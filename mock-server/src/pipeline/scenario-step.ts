// Acts out an armed scenario around one call: answers in its place, delays it, reshapes its answer, or
// lets it run and has its answer dropped.
import type { components } from '#api/control.gen.ts'
import type { AnyOutput } from './types.ts'

type ArmedScenario = components['schemas']['ArmedScenario']

/** What a scenario is matched against: the call's operation, its account, whether it carried a bearer token. */
export interface CallFacts {
  operation: string
  email?: string
  hasBearer: boolean
}

/** A JSON object: not null, not an array. */
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export interface ScenarioHooks {
  take(call: CallFacts): Promise<ArmedScenario | null>
  /**
   * The account a call belongs to (body e-mail, a bearer token this server signed, refresh token, reset token
   * or cookie): never an account an unsigned token merely names.
   */
  resolveEmail(
    input: { body: unknown; request: { cookies: Record<string, string | undefined>; secure: boolean } },
    bearer: string | undefined,
  ): Promise<string | undefined>
  sleep(ms: number): Promise<void>
}

/**
 * Calls take armed scenarios in the order they arrive. Finding a call's account may read the store, so the
 * accounts are found side by side and the takes made one after another, in arrival order.
 * @example
 * const takeInOrder = createArrivalOrder()
 * const { email, scenario } = await takeInOrder(() => resolve(call), (email) => hooks.take({ ...facts, email }))
 */
export function createArrivalOrder() {
  let tail: Promise<unknown> = Promise.resolve()
  return <T, R>(
    prepare: () => Promise<T>,
    take: (prepared: T) => Promise<R>,
  ): Promise<{ prepared: T; taken: R }> => {
    const prepared = prepare()
    // Its failure reaches the caller through `result`, which may await it only later: handled now, so a store
    // that fails meanwhile is never an unhandled rejection (it took the whole process down).
    prepared.catch(() => undefined)
    // The next call's take waits for this one's, store round trip included.
    const result = tail.then(async () => {
      const value = await prepared
      return { prepared: value, taken: await take(value) }
    })
    tail = result.catch(() => undefined)
    return result
  }
}

export async function applyScenario(
  hooks: Pick<ScenarioHooks, 'sleep'>,
  scenario: ArmedScenario | null,
  run: () => Promise<AnyOutput>,
): Promise<{ output: AnyOutput; scenario?: string; dropped?: true }> {
  if (!scenario) return { output: await run() }
  const answer = answerFor(scenario)
  if (answer) return { output: answer, scenario: scenario.name }
  if (scenario.name === 'latency') await hooks.sleep(scenario.delay_ms ?? 0)
  const output = await run()
  // The call has done its work (a refresh has rotated); only its answer is lost on the way back.
  if (scenario.name === 'answer-lost') return { output, scenario: scenario.name, dropped: true }
  return { output: reshape(scenario, output), scenario: scenario.name }
}

function unauthorized(body: Record<string, string>): AnyOutput {
  return { status: 401, body, headers: { 'www-authenticate': 'Bearer error="invalid_token"' } }
}

/** The answer a scenario gives in place of the call, or null when the call runs. */
function answerFor({ name, message, status }: ArmedScenario): AnyOutput | null {
  switch (name) {
    case 'access-token-expired':
      return unauthorized({ error: 'token_expired', message: message ?? 'The access token has expired.' })
    case 'access-token-invalid':
      return unauthorized({ error: 'token_invalid', message: message ?? 'The access token is invalid.' })
    case 'unauthorized-no-code':
      return unauthorized(message === undefined ? {} : { message })
    case 'unauthorized-other':
      return unauthorized({
        error: 'access_denied',
        message: message ?? 'Access to this account was denied.',
      })
    case 'unauthorized-no-message':
      return unauthorized({ error: 'access_denied' })
    case 'refresh-rejected':
      return {
        status: 401,
        body: {
          success: false,
          error: 'refresh_invalid',
          message: message ?? 'The refresh token is invalid.',
        },
      }
    case 'refresh-unsuccessful':
      return {
        status: 200,
        body: { success: false, message: message ?? 'The session could not be refreshed.' },
      }
    case 'session-unavailable':
      return {
        status: 500,
        body: { error: 'session_unavailable', message: message ?? 'The session service is unavailable.' },
      }
    case 'server-error':
      return {
        status: status ?? 503,
        body: { error: 'server_error', message: message ?? 'The server is temporarily unavailable.' },
      }
    default:
      return null
  }
}

function reshape(scenario: ArmedScenario, output: AnyOutput): AnyOutput {
  if (scenario.name === 'refresh-incomplete' && output.status === 200 && isRecord(output.body)) {
    const { refresh_token: _dropped, ...body } = output.body
    return { ...output, body }
  }
  if (scenario.name === 'legacy-user-fields' && output.status === 200) {
    return { ...output, body: toLegacyUsers(output.body) }
  }
  return output
}

/** `{ id, email, name }` becomes `{ userId, emailId, name }`, at the top level or under `user`. */
function toLegacyUsers(body: unknown): unknown {
  if (!isRecord(body)) return body
  if (typeof body.id === 'string' && typeof body.email === 'string' && typeof body.name === 'string') {
    return { userId: body.id, emailId: body.email, name: body.name }
  }
  if (isRecord(body.user)) return { ...body, user: toLegacyUsers(body.user) }
  return body
}
