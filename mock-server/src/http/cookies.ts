// The session cookie, and the external sign-in's binding cookie (relying-party/pending-sign-ins.ts): HttpOnly,
// SameSite=Lax, Path=/; over https Secure with the __Host- prefix.
import type { CookieInstruction } from '../operations/types.ts'

export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-sid' : 'sid'
}

export function externalCookieName(secure: boolean): string {
  return secure ? '__Host-sso' : 'sso'
}

export function readSessionCookie(
  cookies: Record<string, string | undefined>,
  secure: boolean,
): string | undefined {
  return cookies[sessionCookieName(secure)]
}

export function serializeCookie(instruction: CookieInstruction, secure: boolean): string {
  const parts = [
    `${(instruction.name === 'external' ? externalCookieName : sessionCookieName)(secure)}=${instruction.value === null ? '' : encodeURIComponent(instruction.value)}`,
  ]
  parts.push('Path=/', 'HttpOnly', 'SameSite=Lax')
  if (secure) parts.push('Secure')
  if (instruction.value === null) parts.push('Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT')
  else if (instruction.maxAgeSeconds !== undefined) parts.push(`Max-Age=${instruction.maxAgeSeconds}`)
  return parts.join('; ')
}
