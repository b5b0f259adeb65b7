// Generated from api/openapi.yaml and api/control.openapi.yaml by scripts/gen-api.ts (npm run gen:api). Do not edit by hand.

/** Every operation of openapi.yaml: method, path template and bearer rule. */
export const API_OPERATIONS = {
  getSession: {
    method: 'GET',
    path: '/api/_auth/session',
    bearer: 'none',
  },
  deleteSession: {
    method: 'DELETE',
    path: '/api/_auth/session',
    bearer: 'ignored',
  },
  refreshToken: {
    method: 'POST',
    path: '/api/refresh_token',
    bearer: 'none',
  },
  login: {
    method: 'POST',
    path: '/api/auth/login',
    bearer: 'none',
  },
  signup: {
    method: 'POST',
    path: '/api/auth/signup',
    bearer: 'none',
  },
  sendOtp: {
    method: 'POST',
    path: '/api/auth/otp/send',
    bearer: 'none',
  },
  verifyOtp: {
    method: 'POST',
    path: '/api/auth/otp/verify',
    bearer: 'none',
  },
  forgotPassword: {
    method: 'POST',
    path: '/api/auth/forgot',
    bearer: 'none',
  },
  updatePassword: {
    method: 'POST',
    path: '/api/auth/update_password',
    bearer: 'checked',
    bearerOmittedWithField: 'reset_token',
  },
  authorizeExternal: {
    method: 'GET',
    path: '/api/auth/external/authorize',
    bearer: 'none',
  },
  exchangeCallback: {
    method: 'POST',
    path: '/api/auth/callback',
    bearer: 'none',
  },
  getMe: {
    method: 'GET',
    path: '/api/me',
    bearer: 'required',
  },
  getProcess: {
    method: 'GET',
    path: '/api/process',
    bearer: 'required',
  },
  updateProcessStep: {
    method: 'PATCH',
    path: '/api/process/steps/{id}',
    bearer: 'required',
  },
  getHelp: {
    method: 'GET',
    path: '/api/help',
    bearer: 'required',
  },
  getLatestBuild: {
    method: 'GET',
    path: '/builds/latest.json',
    bearer: 'none',
  },
  getBuildMeta: {
    method: 'GET',
    path: '/builds/meta/{id}.json',
    bearer: 'none',
  },
} as const satisfies Record<
  string,
  {
    method: string
    path: string
    bearer: 'required' | 'checked' | 'ignored' | 'none'
    bearerOmittedWithField?: string
  }
>

export type ApiOperationId = keyof typeof API_OPERATIONS

/** The operations a client calls with its bearer token: those whose every security requirement needs it. */
export const PROTECTED_OPERATIONS = ['getMe', 'getProcess', 'updateProcessStep', 'getHelp'] as const

/** The operations a client calls without its bearer token (`checked` ones only with `bearerOmittedWithField` in the body). */
export const PUBLIC_OPERATIONS = [
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
  'getLatestBuild',
  'getBuildMeta',
] as const

/** The control document's scenario names, in its order. */
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

/** Which operations each scenario applies to, and whether only calls with a bearer token match. */
export const SCENARIO_RULES = {
  'access-token-expired': {
    operations: ['getMe', 'getProcess', 'updateProcessStep', 'getHelp', 'updatePassword'],
    needsBearer: true,
  },
  'access-token-invalid': {
    operations: ['getMe', 'getProcess', 'updateProcessStep', 'getHelp', 'updatePassword'],
    needsBearer: true,
  },
  'unauthorized-no-code': {
    operations: ['getMe', 'getProcess', 'updateProcessStep', 'getHelp', 'updatePassword'],
    needsBearer: true,
  },
  'unauthorized-other': {
    operations: ['getMe', 'getProcess', 'updateProcessStep', 'getHelp', 'updatePassword'],
    needsBearer: true,
  },
  'unauthorized-no-message': {
    operations: ['getMe', 'getProcess', 'updateProcessStep', 'getHelp', 'updatePassword'],
    needsBearer: true,
  },
  'refresh-rejected': {
    operations: ['refreshToken'],
    needsBearer: false,
  },
  'refresh-unsuccessful': {
    operations: ['refreshToken'],
    needsBearer: false,
  },
  'refresh-incomplete': {
    operations: ['refreshToken'],
    needsBearer: false,
  },
  'session-unavailable': {
    operations: ['getSession'],
    needsBearer: false,
  },
  'server-error': {
    operations: [
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
      'getMe',
      'getProcess',
      'updateProcessStep',
      'getHelp',
    ],
    needsBearer: false,
  },
  latency: {
    operations: [
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
      'getMe',
      'getProcess',
      'updateProcessStep',
      'getHelp',
    ],
    needsBearer: false,
  },
  'legacy-user-fields': {
    operations: ['getSession', 'login', 'verifyOtp', 'exchangeCallback', 'getMe'],
    needsBearer: false,
  },
  'answer-lost': {
    operations: [
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
      'getMe',
      'getProcess',
      'updateProcessStep',
      'getHelp',
    ],
    needsBearer: false,
  },
} as const satisfies Record<ScenarioName, { operations: readonly ApiOperationId[]; needsBearer: boolean }>
