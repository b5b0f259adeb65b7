// Scenarios armed on demand: each call of the product API takes the earliest armed scenario that
// matches it (by name's operations, account and operation), which then serves `times` calls and is spent.
import type { components } from '#api/control.gen.ts'
import { SCENARIO_NAMES, SCENARIO_RULES, type ScenarioName } from '#api/operations.gen.ts'
import type { Clock } from '../shared/clock.ts'
import { createId } from '../shared/crypto.ts'
import type { CallFacts } from '../pipeline/scenario-step.ts'

type ControlSchemas = components['schemas']

export { SCENARIO_NAMES, type ScenarioName } from '#api/operations.gen.ts'

/** What each scenario does, for `GET /__mock/scenarios`; which calls it matches is the contract's (SCENARIO_RULES). */
const DESCRIPTIONS: Record<ScenarioName, string> = {
  'access-token-expired': "401 { error: 'token_expired' } on a call that carried a token.",
  'access-token-invalid': "401 { error: 'token_invalid' } on a call that carried a token.",
  'unauthorized-no-code': '401 without an error code (with `message` when given): the client refreshes once.',
  'unauthorized-other': "401 { error: 'access_denied', message } with the given or a default message.",
  'unauthorized-no-message': "401 { error: 'access_denied' } without a message.",
  'refresh-rejected': "The refresh answers 401 { success: false, error: 'refresh_invalid' }.",
  'refresh-unsuccessful': 'The refresh answers 200 { success: false, message }.',
  'refresh-incomplete': 'The refresh rotates but its 200 answer lacks refresh_token.',
  'session-unavailable': "The session call answers 500 { error: 'session_unavailable' }.",
  'server-error': "Any call answers `status` (default 503) { error: 'server_error' }.",
  latency: 'Any call is answered `delay_ms` (default 1000) later.',
  'legacy-user-fields': 'Users in answers carry userId/emailId instead of id/email.',
  'answer-lost':
    'Any call runs (a refresh really rotates) but its answer is never sent: the connection is dropped.',
}

export type ScenarioInfo = ControlSchemas['ScenarioInfo']

export const SCENARIOS: readonly ScenarioInfo[] = SCENARIO_NAMES.map((name) => ({
  name,
  description: DESCRIPTIONS[name],
  operations: [...SCENARIO_RULES[name].operations],
}))

/** One variant of the control document's `ArmRequest`: the schema states which fields go with which scenario. */
export type ArmRequest = ControlSchemas['ArmRequest']
export type ArmedScenario = ControlSchemas['ArmedScenario']

/** The armed scenarios, in this process (createScenarios) or in the database every instance shares (compose/sql-control.ts). */
export interface Scenarios {
  arm(request: ArmRequest): Promise<ArmedScenario>
  /** Takes (and spends one use of) the earliest armed scenario matching the call. */
  take(call: CallFacts): Promise<ArmedScenario | null>
  list(): Promise<ArmedScenario[]>
  /** Disarms all, or one account's; returns how many. */
  clear(email?: string): Promise<number>
}

export const DEFAULT_LATENCY_MS = 1000
export const DEFAULT_FAULT_STATUS = 503

/** The scenario an arm request makes, armed now. */
export function scenarioOf(request: ArmRequest, clock: Clock): ArmedScenario {
  return {
    id: createId(),
    name: request.name,
    remaining: request.until_cleared ? null : (request.times ?? 1),
    armed_at: new Date(clock.now()).toISOString(),
    ...(request.email !== undefined && { email: request.email.trim().toLowerCase() }),
    ...(request.operation !== undefined && { operation: request.operation }),
    ...(request.message !== undefined && { message: request.message }),
    ...(request.name === 'server-error' && { status: request.status ?? DEFAULT_FAULT_STATUS }),
    ...(request.name === 'latency' && { delay_ms: request.delay_ms ?? DEFAULT_LATENCY_MS }),
  }
}

/** In this process's memory: one instance's scenarios. */
export function createScenarios(clock: Clock): Scenarios {
  let armed: ArmedScenario[] = []
  return {
    async arm(request) {
      const scenario = scenarioOf(request, clock)
      armed.push(scenario)
      return { ...scenario }
    },
    async take(call) {
      const found = armed.find((scenario) => matches(scenario, call))
      if (!found) return null
      if (found.remaining !== null) {
        found.remaining -= 1
        if (found.remaining <= 0) armed = armed.filter((scenario) => scenario !== found)
      }
      return { ...found }
    },
    list: async () => armed.map((scenario) => ({ ...scenario })),
    async clear(email) {
      const wanted = email?.trim().toLowerCase()
      const before = armed.length
      armed = wanted === undefined ? [] : armed.filter((scenario) => scenario.email !== wanted)
      return before - armed.length
    },
  }
}

/** Whether an armed scenario applies to a call (the contract's SCENARIO_RULES, then its own account and operation). */
export function matches(scenario: ArmedScenario, call: CallFacts): boolean {
  const rule: { operations: readonly string[]; needsBearer: boolean } = SCENARIO_RULES[scenario.name]
  if (!rule.operations.includes(call.operation)) return false
  if (rule.needsBearer && !call.hasBearer) return false
  if (scenario.operation !== undefined && scenario.operation !== call.operation) return false
  if (scenario.email !== undefined && scenario.email !== call.email) return false
  return true
}
