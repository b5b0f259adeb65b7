// The QA panel's calls to the mock server's control surface (mock-server/control.openapi.yaml). Not the product API:
// plain fetch (injected), no bearer token, no retry, no session handling. When the mock server has a control token
// (--control-token), every call carries the one QA typed into the panel.
import type { components } from '#contracts/control.gen.ts'

type Schemas = components['schemas']
export type ScenarioInfo = Schemas['ScenarioInfo']
export type ArmedScenario = Schemas['ArmedScenario']
export type ScenarioName = Schemas['ScenarioName']
export type Clock = Schemas['Clock']
export type JournalEntry = Schemas['JournalEntry']

export interface MockControlClient {
  listScenarios(): Promise<{ available: ScenarioInfo[]; armed: ArmedScenario[] }>
  arm(name: ScenarioName, email: string): Promise<ArmedScenario>
  advanceClock(ms: number): Promise<Clock>
  /** The account's journal, newest last. */
  requests(email: string): Promise<JournalEntry[]>
}

/** The header the mock server reads the control token from (mock-server/control.openapi.yaml). */
export const CONTROL_TOKEN_HEADER = 'X-Mock-Control-Token'

/** A refusal of the control surface, with its error code (`control_token_required`, `host_not_allowed`, ...). */
export class MockControlError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

/**
 * @example
 * const control = createMockControlClient({ fetch: (request) => window.fetch(request), origin: location.origin, token })
 * await control.arm('access-token-expired', 'ada@example.com')
 */
export function createMockControlClient({
  fetch,
  origin,
  token,
}: {
  fetch: (input: Request) => Promise<Response>
  origin: string
  /** The mock server's control token, when it has one. */
  token?: string
}): MockControlClient {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const request = new Request(new URL(path, origin), {
      method,
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && { 'Content-Type': 'application/json' }),
        ...(token && { [CONTROL_TOKEN_HEADER]: token }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })
    const response = await fetch(request)
    const json = (await response.json().catch(() => null)) as
      (T & { message?: string; error?: string }) | null
    if (!response.ok || json === null) {
      throw new MockControlError(
        `Failed to call ${method} ${path}: ${json?.message ?? `status ${response.status}`}.`,
        json?.error,
      )
    }
    return json
  }
  return {
    listScenarios: () => call('GET', '/__mock/scenarios'),
    arm: (name, email) => call('POST', '/__mock/scenarios', { name, email }),
    advanceClock: (ms) => call('POST', '/__mock/clock', { advance_ms: ms }),
    requests: async (email) =>
      (await call<{ requests: JournalEntry[] }>('GET', `/__mock/requests?email=${encodeURIComponent(email)}`))
        .requests,
  }
}
