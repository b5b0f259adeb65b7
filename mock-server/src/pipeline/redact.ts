// What the journal, and so the HAR export, keeps of a call: every secret replaced by one marker
// (docs/decisions/017-har-record-and-replay.md). The replay reads the same rule (har/matcher.ts).

/** What a secret becomes. */
export const REDACTED = '[redacted]'

/** Names whose value is a secret wherever they hold one: a substring of the name, once lower-cased and stripped. */
const SECRET_PARTS = ['password', 'passwd', 'token', 'secret', 'apikey']
/** Names that are a secret only as a whole (`code`, not `error_code`). */
const SECRET_NAMES = new Set(['code', 'codeverifier', 'otp', 'state', 'nonce'])

/**
 * Whether a field, query parameter or form field of this name holds a secret (`password`, `token`, `code`, ...).
 * @example isSecretName('refresh_token') // true; isSecretName('error_code') // false
 */
export function isSecretName(name: string): boolean {
  const plain = name.toLowerCase().replace(/[^a-z0-9]/g, '')
  return SECRET_NAMES.has(plain) || SECRET_PARTS.some((part) => plain.includes(part))
}

/**
 * A JSON value with every secret field's value replaced, at any depth. `true`, `false` and `null` tell nothing
 * and stay.
 */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson)
  if (typeof value !== 'object' || value === null) return value
  const copy: Record<string, unknown> = {}
  for (const [name, field] of Object.entries(value)) {
    const keep = field === null || typeof field === 'boolean'
    copy[name] = isSecretName(name) && !keep ? REDACTED : redactJson(field)
  }
  return copy
}

/** Name-value pairs (a query string, a posted form) with the secret ones' values replaced. */
export function redactPairs(pairs: Iterable<[string, string]>): [string, string][] {
  return [...pairs].map(([name, value]) => [name, isSecretName(name) ? REDACTED : value])
}

/** A query string (with or without its `?`) with its secret parameters' values replaced; '' stays ''. */
export function redactSearch(search: string): string {
  if (search === '' || search === '?') return ''
  const params = new URLSearchParams(redactPairs(new URLSearchParams(search)))
  // URLSearchParams writes the marker's brackets percent-encoded; a reader of the HAR sees them plain.
  return `?${params.toString().replaceAll('%5Bredacted%5D', REDACTED)}`
}

/**
 * A URL (absolute or a path) with the secret parameters of its query and fragment (`#access_token=...`) replaced.
 * Anything that is no URL is kept.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#')
  const beforeHash = hash === -1 ? url : url.slice(0, hash)
  const fragment = hash === -1 ? '' : url.slice(hash + 1)
  const query = beforeHash.indexOf('?')
  const base = query === -1 ? beforeHash : beforeHash.slice(0, query)
  const search = query === -1 ? '' : redactSearch(beforeHash.slice(query))
  const safeFragment = fragment.includes('=') ? redactSearch(fragment).slice(1) : fragment
  return `${base}${search}${hash === -1 ? '' : `#${safeFragment}`}`
}

/** Headers whose whole value is a credential. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'x-mock-control-token', 'x-api-key'])

/**
 * One header's value as the journal keeps it. `Authorization` keeps its scheme, cookies keep their names, and
 * `Location` loses its secrets. A header whose name holds a secret word is replaced whole.
 * @example redactHeader('cookie', 'sid=abc; theme=dark') // 'sid=[redacted]; theme=[redacted]'
 */
export function redactHeader(name: string, value: string): string {
  const lower = name.toLowerCase()
  if (lower === 'authorization' || lower === 'proxy-authorization') {
    const scheme = /^(\S+)\s+\S/.exec(value)
    return scheme ? `${scheme[1]} ${REDACTED}` : REDACTED
  }
  if (lower === 'cookie') return redactCookieHeader(value)
  if (lower === 'set-cookie') return redactSetCookie(value)
  if (lower === 'location' || lower === 'content-location' || lower === 'referer') return redactUrl(value)
  if (SECRET_HEADERS.has(lower) || isSecretName(lower)) return REDACTED
  return value
}

/** A `Cookie` header with every value replaced: `a=1; b=2` -> `a=[redacted]; b=[redacted]`. */
export function redactCookieHeader(value: string): string {
  return value
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const index = part.indexOf('=')
      return index === -1 ? REDACTED : `${part.slice(0, index)}=${REDACTED}`
    })
    .join('; ')
}

/** One `Set-Cookie` value with the cookie's value replaced and its attributes kept. */
export function redactSetCookie(value: string): string {
  const [pair = '', ...attributes] = value.split(';')
  const index = pair.indexOf('=')
  const name = index === -1 ? '' : pair.slice(0, index).trim()
  return [`${name}=${REDACTED}`, ...attributes.map((attribute) => attribute.trim())].join('; ')
}

/** Whether JSON text without escapes has a key isSecretName takes (a string followed by a colon). */
function namesSecret(text: string): boolean {
  for (const match of text.matchAll(/"([^"]*)"\s*:/g)) if (isSecretName(match[1]!)) return true
  return false
}

/**
 * A body's text as the journal keeps it: JSON or a form with its secret fields replaced. Other text is replaced
 * whole when it names a secret; the API speaks JSON, so this is only a safety net.
 */
export function redactBodyText(mimeType: string, text: string): string {
  const type = mimeType.split(';')[0]!.trim().toLowerCase()
  if (/[/+]json$/.test(type)) {
    // Most answers name no secret at all: kept as they are, without parsing them (an escape could hide a name).
    if (!text.includes('\\') && !namesSecret(text)) return text
    try {
      return JSON.stringify(redactJson(JSON.parse(text) as unknown))
    } catch {
      return REDACTED
    }
  }
  if (type === 'application/x-www-form-urlencoded') return redactSearch(text).slice(1)
  const suspicious = /["']?([A-Za-z_-]+)["']?\s*[:=]/g
  for (const match of text.matchAll(suspicious)) if (isSecretName(match[1]!)) return REDACTED
  return text
}
