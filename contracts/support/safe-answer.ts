/**
 * What a safe answer looks like beyond its schemas (api/openapi.yaml, "A safe answer"): the flags of each cookie,
 * Secure over https, an expired cookie where a session ends, no-store where a secret travels. Pure: no HTTP, no clock.
 */

export interface SetCookie {
  name: string
  /** Attribute names lower-cased (RFC 6265 reads them case-insensitively), with their values ('' for a flag). */
  attributes: Map<string, string>
}

/**
 * One `Set-Cookie` value, parsed as a browser reads it.
 * @example parseSetCookie('sid=a; Path=/; HttpOnly').attributes.get('httponly') // ''
 */
export function parseSetCookie(value: string): SetCookie {
  const [pair = '', ...rest] = value.split(';')
  const name = pair.split('=')[0]!.trim()
  const attributes = new Map<string, string>()
  for (const part of rest) {
    const at = part.indexOf('=')
    const key = (at === -1 ? part : part.slice(0, at)).trim().toLowerCase()
    if (key) attributes.set(key, at === -1 ? '' : part.slice(at + 1).trim())
  }
  return { name, attributes }
}

/**
 * The cookie with its value left out and its attributes as sent: the value is a secret, never put in a message.
 * @example describeSetCookie('sid=s3cret; Path=/; HttpOnly') // 'sid=…; Path=/; HttpOnly'
 */
export function describeSetCookie(value: string): string {
  const [pair = '', ...attributes] = value.split(';')
  return [`${pair.split('=')[0]!.trim()}=…`, ...attributes.map((part) => part.trim())].join('; ')
}

export interface CookieRule {
  /** The request came over https: its URL, or the X-Forwarded-Proto a trusted proxy would pass on. */
  overHttps: boolean
  /** The answer ends a session, so the cookie must be expired. */
  mustExpire: boolean
  /** Milliseconds since the epoch, for an `Expires` date. */
  now: number
}

const SAME_SITE = new Set(['lax', 'strict', 'none'])

function isExpired({ attributes }: SetCookie, now: number): boolean {
  const maxAge = attributes.get('max-age')
  // Max-Age wins over Expires when both are there (RFC 6265, as browsers apply it).
  if (maxAge !== undefined && /^-?\d+$/.test(maxAge)) return Number(maxAge) <= 0
  const expires = Date.parse(attributes.get('expires') ?? '')
  return Number.isFinite(expires) && expires <= now
}

/**
 * What one cookie lacks, in words; empty when it is safe.
 * @example findCookieFaults('sid=a; Path=/', { overHttps: false, mustExpire: false, now: 0 }) // ['HttpOnly', 'SameSite']
 */
export function findCookieFaults(value: string, rule: CookieRule): string[] {
  const cookie = parseSetCookie(value)
  const { attributes } = cookie
  const faults: string[] = []
  if (!attributes.has('httponly')) faults.push('HttpOnly')
  const sameSite = attributes.get('samesite')?.toLowerCase()
  if (sameSite === undefined) faults.push('SameSite')
  else if (!SAME_SITE.has(sameSite)) faults.push('SameSite of Lax, Strict or None')
  if (attributes.get('path') !== '/') faults.push('Path=/')
  if (!attributes.has('secure')) {
    if (rule.overHttps) faults.push('Secure (the request came over https)')
    else if (cookie.name.startsWith('__Host-')) faults.push('Secure (a __Host- cookie needs it)')
    else if (sameSite === 'none') faults.push('Secure (SameSite=None needs it)')
  }
  if (rule.mustExpire && !isExpired(cookie, rule.now))
    faults.push('an expiry (Max-Age=0 or an Expires in the past: the answer ends the session)')
  return faults
}

/** Fields whose value is a secret: a token or a one-time code (the product's and the control surface's). */
const SECRET_FIELDS = new Set([
  'token',
  'refresh_token',
  'service_token',
  'reset_token',
  'access_token',
  'id_token',
  'code',
])

function findSecretField(body: unknown, depth = 0): string | null {
  if (depth > 8 || body === null || typeof body !== 'object') return null
  for (const [key, value] of Object.entries(body)) {
    if (SECRET_FIELDS.has(key) && typeof value === 'string' && value !== '') return key
    const inner = findSecretField(value, depth + 1)
    if (inner) return inner
  }
  return null
}

/**
 * What secret an answer carries (a body field, a code in its Location, a cookie), or null: such an answer must
 * never be stored by a cache.
 * @example findCarriedSecret({ token: 'jwt' }, undefined, undefined) // 'a token (body field token)'
 */
export function findCarriedSecret(body: unknown, location: unknown, setCookie: unknown): string | null {
  const field = findSecretField(body)
  if (field) return `a ${field === 'code' ? 'code' : 'token'} (body field ${field})`
  if (typeof location === 'string') {
    const query = new URL(location, 'http://location.invalid').searchParams
    const named = ['code', 'token', 'access_token', 'id_token'].find((name) => query.has(name))
    if (named) return `a ${named === 'code' ? 'code' : 'token'} (Location query ${named})`
  }
  if (setCookie !== undefined) return 'a cookie (Set-Cookie)'
  return null
}

/**
 * Whether a request went over https, as the server should see it: its URL, else the right-most X-Forwarded-Proto
 * entry (the one a trusted proxy writes; a client can write the entries left of it).
 * @example isOverHttps('http://127.0.0.1:4010/api/me', 'http, https') // true
 */
export function isOverHttps(url: string | undefined, forwardedProto: unknown): boolean {
  if (url && /^https:/i.test(url)) return true
  const entries = String(forwardedProto ?? '').split(',')
  return entries.at(-1)!.trim().toLowerCase() === 'https'
}
