// THE error catalogue (docs/behaviour.md: Messages) as plain data: one row per situation, for both suites.
// Texts are typed literally, never imported from the app, so a drift on either side fails a test.

import type { components } from './control.gen.ts'
import { SCENARIO_RULES } from './operations.gen.ts'

export type Suite = 'contract' | 'e2e'

type TokenScenario = components['schemas']['ArmTokenScenario']
type RefreshScenario = components['schemas']['ArmRefreshScenario']

export interface ArmStep {
  /** The scenarios that answer a call with an error of the catalogue (not faults, delays or reshaped bodies). */
  name: TokenScenario['name'] | RefreshScenario['name']
  times?: number
  message?: string
}

/** A refresh scenario is one whose generated rule applies to refreshes only. */
const isRefreshStep = (step: ArmStep): step is ArmStep & { name: RefreshScenario['name'] } =>
  SCENARIO_RULES[step.name].operations.every((operation: string) => operation === 'refreshToken')

/**
 * The arm request of a row's step for `email`. A 401 scenario matches `operation`, or every protected call.
 * @example armRequest({ name: 'access-token-expired' }, 'ada@example.com', 'getMe')
 * // { name: 'access-token-expired', email: 'ada@example.com', operation: 'getMe' }
 */
export function armRequest(
  step: ArmStep,
  email: string,
  operation?: TokenScenario['operation'],
): components['schemas']['ArmRequest'] {
  if (isRefreshStep(step)) return { ...step, email }
  const name = step.name as TokenScenario['name']
  return { ...step, name, email, ...(operation && { operation }) }
}

/** One call the client makes in the row's story, and the answer the server must give it. */
export interface ServerStep {
  call: 'protected' | 'refresh'
  status: number
  /** The `error` code of the answer; null when the body must carry none. */
  code: string | null
  /** The `message` of the answer, where the row depends on it. */
  message?: string | null
  /** For refresh answers: the `success` flag and whether a new refresh_token came back. */
  success?: boolean
  refreshToken?: boolean
}

export interface CatalogueRow {
  id: string
  /** The situation, in docs/behaviour.md's words. */
  situation: string
  suites: readonly Suite[]
  arm: readonly ArmStep[]
  /** What the client does to meet the situation. */
  trigger: 'protected-call' | 'refresh-without-token' | 'unmatched-path' | 'fatal-error' | 'chunk-load-error'
  server: readonly ServerStep[]
  expect: {
    toast?: string
    log?: string
    title?: string
    message?: string
    route: string
    /** What is left under accessToken, refreshToken and serviceToken. */
    storage: 'cleared' | 'kept' | 'untouched'
  }
}

const SESSION_EXPIRED = 'Session expired. Please login again.'

export const ERROR_CATALOGUE: readonly CatalogueRow[] = [
  {
    id: 'refresh-fails-rejected',
    situation: 'refresh fails (the refresh answers 401)',
    suites: ['contract', 'e2e'],
    arm: [{ name: 'access-token-expired' }, { name: 'refresh-rejected' }],
    trigger: 'protected-call',
    server: [
      { call: 'protected', status: 401, code: 'token_expired' },
      { call: 'refresh', status: 401, code: 'refresh_invalid', success: false },
    ],
    expect: { toast: SESSION_EXPIRED, route: '/login', storage: 'cleared' },
  },
  {
    id: 'refresh-fails-unsuccessful',
    situation: 'refresh fails (the refresh answers success: false)',
    suites: ['contract', 'e2e'],
    arm: [{ name: 'access-token-expired' }, { name: 'refresh-unsuccessful' }],
    trigger: 'protected-call',
    server: [
      { call: 'protected', status: 401, code: 'token_expired' },
      { call: 'refresh', status: 200, code: null, success: false },
    ],
    expect: { toast: SESSION_EXPIRED, route: '/login', storage: 'cleared' },
  },
  {
    id: 'refresh-fails-incomplete',
    situation: 'refresh fails (the refresh answers without refresh_token)',
    suites: ['contract', 'e2e'],
    arm: [{ name: 'access-token-expired' }, { name: 'refresh-incomplete' }],
    trigger: 'protected-call',
    server: [
      { call: 'protected', status: 401, code: 'token_expired' },
      { call: 'refresh', status: 200, code: null, success: true, refreshToken: false },
    ],
    expect: { toast: SESSION_EXPIRED, route: '/login', storage: 'cleared' },
  },
  {
    id: 'retried-401-token-expired',
    situation: 'retried request gets 401 with token_expired',
    suites: ['contract', 'e2e'],
    arm: [{ name: 'access-token-expired', times: 2 }],
    trigger: 'protected-call',
    server: [
      { call: 'protected', status: 401, code: 'token_expired' },
      { call: 'refresh', status: 200, code: null, success: true, refreshToken: true },
      { call: 'protected', status: 401, code: 'token_expired' },
    ],
    expect: { toast: 'Your session has expired. Please login again.', route: '/login', storage: 'cleared' },
  },
  {
    id: 'retried-401-token-invalid',
    situation: 'retried request gets 401 with token_invalid',
    suites: ['contract', 'e2e'],
    arm: [{ name: 'access-token-expired' }, { name: 'access-token-invalid' }],
    trigger: 'protected-call',
    server: [
      { call: 'protected', status: 401, code: 'token_expired' },
      { call: 'refresh', status: 200, code: null, success: true, refreshToken: true },
      { call: 'protected', status: 401, code: 'token_invalid' },
    ],
    expect: { toast: 'Invalid authentication. Please login again.', route: '/login', storage: 'cleared' },
  },
  {
    id: 'other-401-with-message',
    situation: "other 401: toast showing the server's message",
    suites: ['contract', 'e2e'],
    arm: [{ name: 'unauthorized-other', message: 'Your account has been suspended.' }],
    trigger: 'protected-call',
    server: [
      { call: 'protected', status: 401, code: 'access_denied', message: 'Your account has been suspended.' },
    ],
    expect: { toast: 'Your account has been suspended.', route: '/login', storage: 'cleared' },
  },
  {
    id: 'other-401-without-message',
    situation: "other 401: 'Authentication failed. Please login again.' if the server sends no message",
    suites: ['contract', 'e2e'],
    arm: [{ name: 'unauthorized-no-message' }],
    trigger: 'protected-call',
    server: [{ call: 'protected', status: 401, code: 'access_denied', message: null }],
    expect: { toast: 'Authentication failed. Please login again.', route: '/login', storage: 'cleared' },
  },
  {
    id: 'retried-401-no-code',
    situation: 'other 401: the retried request gets a 401 with no code and no message',
    suites: ['contract', 'e2e'],
    arm: [{ name: 'unauthorized-no-code', times: 2 }],
    trigger: 'protected-call',
    server: [
      { call: 'protected', status: 401, code: null, message: null },
      { call: 'refresh', status: 200, code: null, success: true, refreshToken: true },
      { call: 'protected', status: 401, code: null, message: null },
    ],
    expect: { toast: 'Authentication failed. Please login again.', route: '/login', storage: 'cleared' },
  },
  {
    id: 'refresh-without-refresh-token',
    situation: "refresh without a refresh token: log 'No refresh token available', no request",
    suites: ['e2e'],
    arm: [],
    trigger: 'refresh-without-token',
    server: [],
    expect: { log: 'No refresh token available', route: '/login', storage: 'cleared' },
  },
  {
    id: 'unmatched-path',
    situation:
      "unmatched path: error page 404, title 'Page not found', message 'Page Not Found' plus the path",
    suites: ['e2e'],
    arm: [],
    trigger: 'unmatched-path',
    server: [],
    expect: {
      title: 'Page not found',
      message: 'Page Not Found',
      route: '/no/such/page',
      storage: 'untouched',
    },
  },
  {
    id: 'fatal-error',
    situation: "other fatal error: generic error page 'Internal Server Error'",
    suites: ['e2e'],
    arm: [],
    trigger: 'fatal-error',
    server: [],
    expect: { title: 'Internal Server Error', route: '/', storage: 'untouched' },
  },
  {
    id: 'chunk-load-error',
    situation: 'chunk-load error: page reload, at most once per 10 seconds',
    suites: ['e2e'],
    arm: [],
    trigger: 'chunk-load-error',
    server: [],
    expect: { route: '/', storage: 'untouched' },
  },
]
