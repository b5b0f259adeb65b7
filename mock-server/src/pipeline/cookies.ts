// The session cookie and the external sign-in's binding cookie (external-sign-in/pending-sign-ins.ts).
// For the app on a --cors-origin the session cookie is SameSite=None, Secure and Partitioned
// (docs/decisions/020-deploying-on-two-origins.md): a Lax cookie never goes with a cross-site call.
import type { CookieInstruction } from './types.ts'

/** How the cookie is written: over https or not, and whether for the app on another origin. */
export interface CookieContext {
  secure: boolean
  /** The call came from a --cors-origin (pipeline/cors.ts `isAllowedOrigin`). */
  crossOrigin: boolean
}

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

/**
 * @example
 * serializeCookie({ name: 'session', value: 's1' }, { secure: false, crossOrigin: false }) // 'sid=s1; Path=/; HttpOnly; SameSite=Lax'
 * serializeCookie({ name: 'session', value: 's1' }, { secure: true, crossOrigin: true })
 * // '__Host-sid=s1; Path=/; HttpOnly; SameSite=None; Secure; Partitioned'
 */
export function serializeCookie(
  instruction: CookieInstruction,
  { secure, crossOrigin }: CookieContext,
): string {
  const parts = [
    `${(instruction.name === 'external' ? externalCookieName : sessionCookieName)(secure)}=${instruction.value === null ? '' : encodeURIComponent(instruction.value)}`,
  ]
  parts.push('Path=/', 'HttpOnly')
  // Chromium takes a Secure cookie from http://localhost and http://127.0.0.1 too (potentially trustworthy origins),
  // where the e2e suite runs its two origins; anywhere else an API on another origin is served over https.
  if (crossOrigin) parts.push('SameSite=None', 'Secure', 'Partitioned')
  else parts.push('SameSite=Lax', ...(secure ? ['Secure'] : []))
  if (instruction.value === null) parts.push('Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT')
  else if (instruction.maxAgeSeconds !== undefined) parts.push(`Max-Age=${instruction.maxAgeSeconds}`)
  return parts.join('; ')
}
