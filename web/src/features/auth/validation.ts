// Client-side checks that mirror the server's rules in openapi.yaml (Email 3-254, Password 8-128, name 1-100,
// Code ^[0-9]{6}$), and the wording of failures. Pure.
import { getErrorMessage, type ErrorBody } from '../../api/error-messages.ts'

export type FieldErrors = Partial<Record<string, string>>

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export function checkEmail(email: string): string | null {
  const value = email.trim()
  if (value === '') return 'Enter your e-mail address.'
  if (value.length < 3 || value.length > 254 || !EMAIL.test(value)) return 'Enter a valid e-mail address.'
  return null
}

/** A new password (sign-up, update); sign-in only needs one to be there. */
export function checkNewPassword(password: string): string | null {
  if (password === '') return 'Enter a password.'
  if (password.length < 8) return 'Use at least 8 characters.'
  if (password.length > 128) return 'Use at most 128 characters.'
  return null
}

export function checkName(name: string): string | null {
  const value = name.trim()
  if (value === '') return 'Enter your name.'
  if (value.length > 100) return 'Use at most 100 characters.'
  return null
}

export function checkCode(code: string): string | null {
  return /^[0-9]{6}$/.test(code) ? null : 'Enter the 6-digit code.'
}

/** Digits only, at most six: pasting "123 456" or "Code: 123456" gives "123456". */
export function normalizeCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, 6)
}

/** Drops the fields without an error; null when there is none left. */
export function collectErrors(errors: Record<string, string | null>): FieldErrors | null {
  const found = Object.fromEntries(
    Object.entries(errors).filter(([, message]) => message !== null),
  ) as FieldErrors
  return Object.keys(found).length > 0 ? found : null
}

/** "30 seconds", "1 minute", "2 minutes 5 seconds". */
export function formatWait(seconds: number): string {
  const s = Math.max(0, Math.ceil(seconds))
  const minutes = Math.floor(s / 60)
  const rest = s % 60
  const part = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`
  if (minutes === 0) return part(rest, 'second')
  return rest === 0 ? part(minutes, 'minute') : `${part(minutes, 'minute')} ${part(rest, 'second')}`
}

/** The sentence a form shows for a failed call, with the wait or the attempts left when the server gives them. */
export function describeFailure(body: ErrorBody | null | undefined): string {
  if (body?.error === 'rate_limited' && typeof body.retry_after === 'number') {
    return `Too many attempts. Please wait ${formatWait(body.retry_after)} and try again.`
  }
  if (body?.error === 'invalid_code' && typeof body.attempts_left === 'number') {
    const left = body.attempts_left
    return `${getErrorMessage(body)} ${left} ${left === 1 ? 'attempt' : 'attempts'} left.`
  }
  return getErrorMessage(body)
}
