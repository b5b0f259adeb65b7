// The user-facing copy for every error code of openapi.yaml and the mock server's faults (docs/behaviour.md: Messages for the sign-out texts). Pure data and
// pure functions: imports nothing with effects.
import type { components } from '#api/openapi.gen.ts'

/** Every `error` code the contract documents (openapi.yaml `ErrorCode`): a new code there is a compile error here. */
export type ErrorCode = components['schemas']['ErrorCode']

/** A failed refresh (docs/behaviour.md: Session, Messages). */
export const REFRESH_FAILED_MESSAGE = 'Session expired. Please login again.'

/** Any 401 without a message of its own (docs/behaviour.md: Messages). */
export const AUTH_FAILED_MESSAGE = 'Authentication failed. Please login again.'

/** Shown when a call fails without a code we know and without a message. */
export const GENERIC_ERROR_MESSAGE = 'Something went wrong. Please try again.'

/** Shown when the network itself fails. */
export const NETWORK_ERROR_MESSAGE = 'Could not reach the server. Check your connection and try again.'

const SERVER_PROBLEM_MESSAGE = 'The server had a problem. Please try again.'

const MESSAGES: Record<ErrorCode, string> = {
  token_expired: 'Your session has expired. Please login again.',
  token_invalid: 'Invalid authentication. Please login again.',
  session_revoked: 'Your session has ended. Please login again.',
  access_denied: 'Access denied. Please login again.',
  refresh_invalid: REFRESH_FAILED_MESSAGE,
  refresh_expired: REFRESH_FAILED_MESSAGE,
  refresh_reused: REFRESH_FAILED_MESSAGE,
  invalid_credentials: 'Wrong e-mail or password.',
  unverified: 'Please verify your e-mail address first. We have sent you a code.',
  rate_limited: 'Too many attempts. Please wait and try again.',
  invalid_code: 'That code is not right, or it has expired.',
  too_many_attempts: 'Too many wrong codes. Please ask for a new code.',
  reset_token_invalid: 'This password reset has expired. Please start again.',
  invalid_callback: 'The single sign-on could not be completed. Please try again.',
  external_sign_in_unavailable:
    'Single sign-on is not available here. Please sign in with your e-mail address.',
  not_found: 'Not found.',
  cross_site_request: 'This request was refused.',
  validation_failed: 'Please check the highlighted fields.',
  invalid_json: GENERIC_ERROR_MESSAGE,
  payload_too_large: 'That is too much text. Please shorten it.',
  unsupported_media_type: GENERIC_ERROR_MESSAGE,
  server_error: SERVER_PROBLEM_MESSAGE,
  session_unavailable: SERVER_PROBLEM_MESSAGE,
  internal_error: SERVER_PROBLEM_MESSAGE,
  service_unavailable: SERVER_PROBLEM_MESSAGE,
  password_rejected: 'Please check the highlighted fields.',
  date_out_of_range: 'Please check the highlighted fields.',
  bad_request: GENERIC_ERROR_MESSAGE,
  method_not_allowed: GENERIC_ERROR_MESSAGE,
  request_timeout: 'The request took too long. Please try again.',
  headers_too_large: GENERIC_ERROR_MESSAGE,
  expectation_failed: GENERIC_ERROR_MESSAGE,
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(MESSAGES, code)
}

/**
 * The body fields every error shares (openapi `Error`). `error` is any text, since a newer server may send
 * a code this build does not know; `isErrorCode` narrows it.
 */
export type ErrorBody = Omit<components['schemas']['Error'], 'error'> & { error?: string }

/**
 * The toast of a forced sign-out after a 401 (docs/behaviour.md: Messages): by code, else the server's message, else the default.
 * @example
 * getSignOutMessage({ error: 'token_invalid' }) // 'Invalid authentication. Please login again.'
 */
export function getSignOutMessage(body: ErrorBody | null | undefined): string {
  if (body?.error === 'token_expired') return MESSAGES.token_expired
  if (body?.error === 'token_invalid') return MESSAGES.token_invalid
  return body?.message || AUTH_FAILED_MESSAGE
}

/**
 * The sentence a screen shows for a failed call: our copy for a known code, else the server's message.
 * @example
 * getErrorMessage({ error: 'invalid_credentials', message: 'x' }) // 'Wrong e-mail or password.'
 */
export function getErrorMessage(body: ErrorBody | null | undefined): string {
  if (isErrorCode(body?.error)) return MESSAGES[body.error]
  return body?.message || GENERIC_ERROR_MESSAGE
}
