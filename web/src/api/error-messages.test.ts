import { expect, test } from 'vitest'
import {
  AUTH_FAILED_MESSAGE,
  GENERIC_ERROR_MESSAGE,
  getErrorMessage,
  getSignOutMessage,
  isErrorCode,
  NETWORK_ERROR_MESSAGE,
  REFRESH_FAILED_MESSAGE,
  type ErrorCode,
} from './error-messages.ts'

const signOut = [
  { body: { error: 'token_expired' }, text: 'Your session has expired. Please login again.' },
  {
    body: { error: 'token_expired', message: 'Token expired' },
    text: 'Your session has expired. Please login again.',
  },
  { body: { error: 'token_invalid' }, text: 'Invalid authentication. Please login again.' },
  {
    body: { error: 'token_invalid', message: 'Bad signature' },
    text: 'Invalid authentication. Please login again.',
  },
  {
    body: { error: 'session_revoked', message: 'Your session was revoked.' },
    text: 'Your session was revoked.',
  },
  { body: { message: 'Missing bearer token' }, text: 'Missing bearer token' },
  { body: { error: 'session_revoked' }, text: 'Authentication failed. Please login again.' },
  { body: { error: 'other', message: '' }, text: 'Authentication failed. Please login again.' },
  { body: {}, text: 'Authentication failed. Please login again.' },
  { body: null, text: 'Authentication failed. Please login again.' },
] as const

test.each(signOut)('sign-out message for $body: $text', ({ body, text }) => {
  expect(getSignOutMessage(body)).toBe(text)
})

const screens = [
  { body: { error: 'invalid_credentials', message: 'Invalid' }, text: 'Wrong e-mail or password.' },
  { body: { error: 'unknown_code', message: 'Server says no' }, text: 'Server says no' },
  { body: { error: 'unknown_code' }, text: 'Something went wrong. Please try again.' },
  { body: null, text: 'Something went wrong. Please try again.' },
] as const

test.each(screens)('screen message for $body: $text', ({ body, text }) => {
  expect(getErrorMessage(body)).toBe(text)
})

// Every code of the contract (openapi.yaml `ErrorCode`); typed so that a code added there must be added here.
const documented: Record<ErrorCode, true> = {
  token_expired: true,
  token_invalid: true,
  session_revoked: true,
  access_denied: true,
  refresh_invalid: true,
  refresh_expired: true,
  refresh_reused: true,
  invalid_credentials: true,
  unverified: true,
  rate_limited: true,
  invalid_code: true,
  too_many_attempts: true,
  reset_token_invalid: true,
  invalid_callback: true,
  external_sign_in_unavailable: true,
  not_found: true,
  cross_site_request: true,
  validation_failed: true,
  invalid_json: true,
  payload_too_large: true,
  unsupported_media_type: true,
  server_error: true,
  session_unavailable: true,
  internal_error: true,
  service_unavailable: true,
  password_rejected: true,
  date_out_of_range: true,
  bad_request: true,
  method_not_allowed: true,
  request_timeout: true,
  headers_too_large: true,
  expectation_failed: true,
}
const codes = Object.keys(documented)

test.each(codes)('every documented code has copy of our own: %s', (code) => {
  expect(isErrorCode(code)).toBe(true)
  expect(getErrorMessage({ error: code, message: 'SERVER TEXT' })).not.toBe('SERVER TEXT')
  expect(getErrorMessage({ error: code }).length).toBeGreaterThan(0)
})

// The copy a screen shows for the codes whose text is their own, typed literally as docs/behaviour.md (Messages)
// gives it: a form that refuses a password or a date marks its fields and asks to check them, whatever the server
// wrote; a request the server gave up on says so.
const screenCopy = [
  { error: 'password_rejected', text: 'Please check the highlighted fields.' },
  { error: 'date_out_of_range', text: 'Please check the highlighted fields.' },
  { error: 'validation_failed', text: 'Please check the highlighted fields.' },
  { error: 'request_timeout', text: 'The request took too long. Please try again.' },
] as const

test.each(screenCopy)('a screen refused with $error says "$text"', ({ error, text }) => {
  expect(getErrorMessage({ error, message: 'What the server wrote' })).toBe(text)
  expect(getErrorMessage({ error })).toBe(text)
})

// The shared texts, typed literally (docs/behaviour.md: Messages): a change to the copy fails here on purpose.
const texts = [
  { text: REFRESH_FAILED_MESSAGE, copy: 'Session expired. Please login again.' },
  { text: AUTH_FAILED_MESSAGE, copy: 'Authentication failed. Please login again.' },
  { text: GENERIC_ERROR_MESSAGE, copy: 'Something went wrong. Please try again.' },
  { text: NETWORK_ERROR_MESSAGE, copy: 'Could not reach the server. Check your connection and try again.' },
] as const

test.each(texts)('$copy', ({ text, copy }) => {
  expect(text).toBe(copy)
})

// Only a string naming a documented code is a code, whatever a server body carries in its place.
const notCodes = [
  'unknown_code',
  'toString',
  '',
  42,
  null,
  undefined,
  ['token_expired'],
  { error: 'token_expired' },
]

test.each(notCodes)('%j is no error code', (code) => {
  expect(isErrorCode(code)).toBe(false)
})
