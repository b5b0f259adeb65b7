// Scenarios armed on demand: each call of the product API takes the earliest armed scenario that
// matches it (by name's operations, account and operation), which then serves `times` calls and is spent.
import type { Clock } from '../domain/clock.ts'
import { createId } from '../domain/crypto.ts'

export const SCENARIO_NAMES = [
  'access-token-expired',
  'access-token-invalid',
  'unauthorized-no-code',
  'unauthorized-other',
  'unauthorized-no-message',
  'refresh-rejected',
  'refresh-unsuccessful',
  'refresh-incomplete',
  'session-unavailable',
  'server-error',
  'latency',
  'legacy-user-fields',
  'answer-lost',
] as const

export type ScenarioName = (typeof SCENARIO_NAMES)[number]

/** The protected calls: those that need a bearer token. */
export const PROTECTED_OPERATIONS = ['getMe', 'getProcess', 'updateProcessStep', 'getHelp'] as const
const TOKEN_CALLS = [...PROTECTED_OPERATIONS, 'updatePassword'] as const
const PRODUCT_OPERATIONS = [
  'getSession',
  'deleteSession',
  'refreshToken',
  'login',
  'signup',
  'sendOtp',
  'verifyOtp',
  'forgotPassword',
  'updatePassword',
  'authorizeExternal',
  'exchangeCallback',
  ...PROTECTED_OPERATIONS,
] as const
const USER_CALLS = ['getSession', 'login', 'verifyOtp', 'exchangeCallback', 'getMe'] as const

export interface ScenarioInfo {
  name: ScenarioName
  description: string
  operations: string[]
  /** Only calls that carried a bearer token match (the 401 scenarios). */
  needsBearer?: boolean
}

export const SCENARIOS: readonly ScenarioInfo[] = [
  {
    name: 'access-token-expired',
    description: "401 { error: 'token_expired' } on a call that carried a token.",
    operations: [...TOKEN_CALLS],
    needsBearer: true,
  },
  {
    name: 'access-token-invalid',
    description: "401 { error: 'token_invalid' } on a call that carried a token.",
    operations: [...TOKEN_CALLS],
    needsBearer: true,
  },
  {
    name: 'unauthorized-no-code',
    description: '401 without an error code (with `message` when given): the client refreshes once.',
    operations: [...TOKEN_CALLS],
    needsBearer: true,
  },
  {
    name: 'unauthorized-other',
    description: "401 { error: 'access_denied', message } with the given or a default message.",
    operations: [...TOKEN_CALLS],
    needsBearer: true,
  },
  {
    name: 'unauthorized-no-message',
    description: "401 { error: 'access_denied' } without a message.",
    operations: [...TOKEN_CALLS],
    needsBearer: true,
  },
  {
    name: 'refresh-rejected',
    description: "The refresh answers 401 { success: false, error: 'refresh_invalid' }.",
    operations: ['refreshToken'],
  },
  {
    name: 'refresh-unsuccessful',
    description: 'The refresh answers 200 { success: false, message }.',
    operations: ['refreshToken'],
  },
  {
    name: 'refresh-incomplete',
    description: 'The refresh rotates but its 200 answer lacks refresh_token.',
    operations: ['refreshToken'],
  },
  {
    name: 'session-unavailable',
    description: "The session call answers 500 { error: 'session_unavailable' }.",
    operations: ['getSession'],
  },
  {
    name: 'server-error',
    description: "Any call answers `status` (default 503) { error: 'server_error' }.",
    operations: [...PRODUCT_OPERATIONS],
  },
  {
    name: 'latency',
    description: 'Any call is answered `delay_ms` (default 1000) later.',
    operations: [...PRODUCT_OPERATIONS],
  },
  {
    name: 'legacy-user-fields',
    description: 'Users in answers carry userId/emailId instead of id/email.',
    operations: [...USER_CALLS],
  },
  {
    name: 'answer-lost',
    description:
      'Any call runs (a refresh really rotates) but its answer is never sent: the connection is dropped.',
    operations: [...PRODUCT_OPERATIONS],
  },
]

export interface ArmRequest {
  name: ScenarioName
  email?: string
  operation?: string
  times?: number
  until_cleared?: boolean
  status?: number
  message?: string
  delay_ms?: number
}

export interface ArmedScenario {
  id: string
  name: ScenarioName
  email?: string
  operation?: string
  remaining: number | null
  status?: number
  message?: string
  delay_ms?: number
  armed_at: string
}

export interface CallFacts {
  operation: string
  email?: string
  hasBearer: boolean
}

export interface Scenarios {
  arm(request: ArmRequest): ArmedScenario
  /** Takes (and spends one use of) the earliest armed scenario matching the call. */
  take(call: CallFacts): ArmedScenario | null
  list(): ArmedScenario[]
  /** Disarms all, or one account's; returns how many. */
  clear(email?: string): number
}

export const DEFAULT_LATENCY_MS = 1000
export const DEFAULT_FAULT_STATUS = 503

/** Why an arm request cannot be honoured (which field, and why), or null. */
export function getArmProblem(request: ArmRequest): { field: string; reason: string } | null {
  const info = SCENARIOS.find((scenario) => scenario.name === request.name)
  if (!info) return { field: 'name', reason: `Unknown scenario ${request.name}.` }
  if (request.operation !== undefined && !info.operations.includes(request.operation)) {
    return { field: 'operation', reason: `${request.name} matches only ${info.operations.join(', ')}.` }
  }
  if (request.status !== undefined && request.name !== 'server-error') {
    return { field: 'status', reason: 'status applies to server-error only.' }
  }
  if (request.delay_ms !== undefined && request.name !== 'latency') {
    return { field: 'delay_ms', reason: 'delay_ms applies to latency only.' }
  }
  return null
}

export function createScenarios(clock: Clock): Scenarios {
  let armed: ArmedScenario[] = []
  return {
    arm(request) {
      const scenario: ArmedScenario = {
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
      armed.push(scenario)
      return { ...scenario }
    },
    take(call) {
      const found = armed.find((scenario) => matches(scenario, call))
      if (!found) return null
      if (found.remaining !== null) {
        found.remaining -= 1
        if (found.remaining <= 0) armed = armed.filter((scenario) => scenario !== found)
      }
      return { ...found }
    },
    list: () => armed.map((scenario) => ({ ...scenario })),
    clear(email) {
      const wanted = email?.trim().toLowerCase()
      const before = armed.length
      armed = wanted === undefined ? [] : armed.filter((scenario) => scenario.email !== wanted)
      return before - armed.length
    },
  }
}

function matches(scenario: ArmedScenario, call: CallFacts): boolean {
  const info = SCENARIOS.find((candidate) => candidate.name === scenario.name)
  if (!info || !info.operations.includes(call.operation)) return false
  if (info.needsBearer && !call.hasBearer) return false
  if (scenario.operation !== undefined && scenario.operation !== call.operation) return false
  if (scenario.email !== undefined && scenario.email !== call.email) return false
  return true
}
