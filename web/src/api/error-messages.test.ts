import { expect, test } from 'vitest'
import {
  AUTH_FAILED_MESSAGE,
  GENERIC_ERROR_MESSAGE,
  getErrorMessage,
  getSignOutMessage,
  isErrorCode,
  NETWORK_ERROR_MESSAGE,
  REFRESH_FAILED_MESSAGE,
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

const codes = [
  'token_expired',
  'token_invalid',
  'session_revoked',
  'access_denied',
  'refresh_invalid',
  'refresh_expired',
  'refresh_reused',
  'invalid_credentials',
  'unverified',
  'rate_limited',
  'invalid_code',
  'too_many_attempts',
  'reset_token_invalid',
  'invalid_callback',
  'external_sign_in_unavailable',
  'not_found',
  'cross_site_request',
  'validation_failed',
  'invalid_json',
  'payload_too_large',
  'unsupported_media_type',
  'server_error',
  'session_unavailable',
] as const

test.each(codes)('every documented code has copy of our own: %s', (code) => {
  expect(isErrorCode(code)).toBe(true)
  expect(getErrorMessage({ error: code, message: 'SERVER TEXT' })).not.toBe('SERVER TEXT')
  expect(getErrorMessage({ error: code }).length).toBeGreaterThan(0)
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
