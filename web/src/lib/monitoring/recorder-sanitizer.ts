// What the session recorder may keep of a network call (docs/behaviour.md: Calls). Pure: imports nothing.
// Sensitive headers, body fields at any depth and query values become '***'.

export const MASK = '***'

/** Header names, compared case-insensitively. */
export const SENSITIVE_HEADERS: readonly string[] = ['authorization', 'cookie', 'set-cookie']

/** Field names; also matched in camelCase or kebab-case (refreshToken, reset-token). */
export const SENSITIVE_FIELDS: readonly string[] = [
  'password',
  'current_password',
  'token',
  'refresh_token',
  'service_token',
  'reset_token',
  'code',
]

const normalize = (name: string) => name.toLowerCase().replace(/[-_]/g, '')
const FIELD_KEYS = new Set(SENSITIVE_FIELDS.map(normalize))
const HEADER_KEYS = new Set(SENSITIVE_HEADERS)

export const isSensitiveField = (name: string) => FIELD_KEYS.has(normalize(name))

/** The shape the recorder hands its sanitizer (@openreplay/tracker's RequestResponseData). */
export interface NetworkCapture {
  readonly status: number
  readonly method: string
  url: string
  request: { body: string | null; headers: Record<string, string> }
  response: { body: unknown; headers: Record<string, string> }
}

function maskHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers ?? {}).map(([name, value]) => [
      name,
      HEADER_KEYS.has(name.toLowerCase()) ? MASK : value,
    ]),
  )
}

function maskValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskValue)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      isSensitiveField(key) && inner != null ? MASK : maskValue(inner),
    ]),
  )
}

function maskParams(params: URLSearchParams): URLSearchParams {
  const masked = new URLSearchParams()
  params.forEach((value, key) => masked.append(key, isSensitiveField(key) ? MASK : value))
  return masked
}

const FORM = /^[^=&\s]+=[^&\s]*(&[^=&\s]+=[^&\s]*)*$/

/** A body as the recorder holds it: JSON text, form text, parsed JSON, or nothing. */
export function maskBody(body: unknown): unknown {
  if (typeof body !== 'string') return maskValue(body)
  try {
    return JSON.stringify(maskValue(JSON.parse(body)))
  } catch {
    return FORM.test(body) ? maskParams(new URLSearchParams(body)).toString() : body
  }
}

export function maskUrl(url: string): string {
  const query = url.indexOf('?')
  if (query === -1) return url
  const end = url.indexOf('#', query)
  const search = url.slice(query + 1, end === -1 ? undefined : end)
  const params = new URLSearchParams(search)
  if (![...params.keys()].some(isSensitiveField)) return url
  return `${url.slice(0, query)}?${maskParams(params).toString()}${end === -1 ? '' : url.slice(end)}`
}

/**
 * The recorder's network sanitizer.
 * @example
 * sanitizeNetworkCapture({ status: 200, method: 'POST', url: '/api/auth/login',
 *   request: { headers: { Authorization: 'Bearer x' }, body: '{"email":"a@b.c","password":"p"}' },
 *   response: { headers: {}, body: { token: 't' } } })
 * // request.headers.Authorization '***', request.body '{"email":"a@b.c","password":"***"}', response.body.token '***'
 */
export function sanitizeNetworkCapture<T extends NetworkCapture>(capture: T): T {
  return {
    ...capture,
    url: maskUrl(capture.url),
    request: {
      ...capture.request,
      headers: maskHeaders(capture.request.headers),
      body: maskBody(capture.request.body) as string | null,
    },
    response: {
      ...capture.response,
      headers: maskHeaders(capture.response.headers),
      body: maskBody(capture.response.body),
    },
  }
}
