import { expect, test } from 'vitest'
import {
  checkCode,
  checkEmail,
  checkNewPassword,
  describeFailure,
  formatWait,
  normalizeCode,
} from './validation.ts'

const emails = [
  { value: '', error: 'Enter your e-mail address.' },
  { value: 'ada', error: 'Enter a valid e-mail address.' },
  { value: 'ada@example', error: 'Enter a valid e-mail address.' },
  { value: ' ada@example.com ', error: null },
] as const
test.each(emails)('checkEmail($value)', ({ value, error }) => expect(checkEmail(value)).toBe(error))

const passwords = [
  { value: '', error: 'Enter a password.' },
  { value: '1234567', error: 'Use at least 8 characters.' },
  { value: '12345678', error: null },
  { value: 'x'.repeat(129), error: 'Use at most 128 characters.' },
] as const
test.each(passwords)('checkNewPassword($value)', ({ value, error }) =>
  expect(checkNewPassword(value)).toBe(error),
)

const codes = [
  { input: '123456', code: '123456', error: null },
  { input: '123 456', code: '123456', error: null },
  { input: 'Code: 123-456.', code: '123456', error: null },
  { input: '1234567', code: '123456', error: null },
  { input: '12a45', code: '1245', error: 'Enter the 6-digit code.' },
] as const
test.each(codes)('normalizeCode($input)', ({ input, code, error }) => {
  expect(normalizeCode(input)).toBe(code)
  expect(checkCode(normalizeCode(input))).toBe(error)
})

const waits = [
  { seconds: 1, text: '1 second' },
  { seconds: 30, text: '30 seconds' },
  { seconds: 60, text: '1 minute' },
  { seconds: 125, text: '2 minutes 5 seconds' },
  { seconds: 0.2, text: '1 second' },
] as const
test.each(waits)('formatWait($seconds)', ({ seconds, text }) => expect(formatWait(seconds)).toBe(text))

const failures = [
  {
    body: { error: 'rate_limited', message: 'x', retry_after: 42 },
    text: 'Too many attempts. Please wait 42 seconds and try again.',
  },
  {
    body: { error: 'invalid_code', attempts_left: 3 },
    text: 'That code is not right, or it has expired. 3 attempts left.',
  },
  {
    body: { error: 'invalid_code', attempts_left: 1 },
    text: 'That code is not right, or it has expired. 1 attempt left.',
  },
  { body: { error: 'invalid_credentials' }, text: 'Wrong e-mail or password.' },
] as const
test.each(failures)('describeFailure($body)', ({ body, text }) => expect(describeFailure(body)).toBe(text))
