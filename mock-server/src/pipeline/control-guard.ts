// Who may drive /__mock (docs/security/surface.md). Only a request naming this server in Host, with the control
// token when one is set, and for a write, same-site with a JSON body. The rest is refused before routing.
// /idp and the API reference (/__mock/docs) are held to the same names.
import { safeEqual } from '../shared/crypto.ts'
import { isCrossSite } from './cross-site.ts'
import { errorResponse, type RawRequest, type RawResponse } from './raw.ts'

/** The names /__mock always answers to. */
export const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '::1'] as const

/** The header that carries the control token. */
export const CONTROL_TOKEN_HEADER = 'x-mock-control-token'

export interface ControlPolicy {
  /** Host names (no port) besides LOOPBACK_HOSTS. */
  allowedHosts: readonly string[]
  /** When set, every /__mock call must carry it in CONTROL_TOKEN_HEADER. */
  token?: string
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/** The identity provider's sign-in form posts here. */
const IDP_FORM_PATH = '/idp/authorize'

/**
 * A host name as URLs compare it, from a Host header (the port dropped) or a bare name; null when it is none.
 * @example getHostName('LocalHost:4010') // 'localhost'; getHostName('[::1]:4010') // '::1'; getHostName('::1') // '::1'
 */
export function getHostName(value: string | undefined): string | null {
  const text = value?.trim() ?? ''
  if (text === '' || /[@/?#\\\s]/.test(text)) return null
  const bracketed = text.includes(':') && !text.startsWith('[') && text.indexOf(':') !== text.lastIndexOf(':')
  try {
    const { hostname } = new URL(`http://${bracketed ? `[${text}]` : text}/`)
    return hostname === '' ? null : hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '')
  } catch {
    return null
  }
}

/**
 * The refusal of a /__mock request, or null when it may go on.
 * @example
 * refuseControlRequest(raw, { allowedHosts: ['qa.internal'], token: process.env.MOCK_CONTROL_TOKEN })
 */
export function refuseControlRequest(raw: RawRequest, policy: ControlPolicy): RawResponse | null {
  const foreign = refuseForeignHost(raw, policy)
  if (foreign) return foreign
  if (policy.token !== undefined && !safeEqual(raw.headers[CONTROL_TOKEN_HEADER] ?? '', policy.token)) {
    return errorResponse(
      401,
      'control_token_required',
      `Send the control token in the ${CONTROL_TOKEN_HEADER} header.`,
    )
  }
  if (SAFE_METHODS.has(raw.method.toUpperCase())) return null
  if (isCrossSite(raw.headers, raw.origin)) {
    return errorResponse(403, 'cross_site_request', 'The control surface takes no requests from other sites.')
  }
  // Judged from the headers: a guarded request's body is never read.
  const hasBody =
    Number(raw.headers['content-length'] ?? 0) > 0 ||
    raw.headers['transfer-encoding'] !== undefined ||
    raw.headers['content-type'] !== undefined
  const mediaType = raw.headers['content-type']?.split(';')[0]?.trim().toLowerCase()
  if (hasBody && mediaType !== 'application/json') {
    return errorResponse(415, 'unsupported_media_type', 'Send the body as application/json.')
  }
  return null
}

/**
 * The refusal of a request to the mock identity provider (/idp), or null. Like /__mock, it answers only at this
 * server's names, and its form takes no post from another site. A form carries no header, so the control token is
 * a form field, checked in idp/operations.ts. Token and userinfo take posts from any site: they check a code or a
 * token, never a cookie (docs/decisions/022-openid-provider.md).
 */
export function refuseIdpRequest(raw: RawRequest, policy: ControlPolicy): RawResponse | null {
  const foreign = refuseForeignHost(raw, policy)
  if (foreign) return foreign
  const isForm = new URL(raw.url, 'http://idp.invalid').pathname === IDP_FORM_PATH
  if (isForm && !SAFE_METHODS.has(raw.method.toUpperCase()) && isCrossSite(raw.headers, raw.origin))
    return errorResponse(
      403,
      'cross_site_request',
      'The identity provider takes no requests from other sites.',
    )
  return null
}

/** Whether a path is the API reference's (/__mock/docs and what its page loads). */
export function isDocsPath(path: string): boolean {
  return path === '/__mock/docs' || path.startsWith('/__mock/docs/')
}

/**
 * The refusal of a request for the API reference (/__mock/docs), or null. It answers only at this server's names
 * but asks for no token: a browser opening a page sends no header, and the pages hold no server state
 * (docs/decisions/019-cli-and-docs.md). It takes no write, so no cross-site rule applies.
 */
export function refuseDocsRequest(raw: RawRequest, policy: ControlPolicy): RawResponse | null {
  return refuseForeignHost(raw, policy)
}

/** A Host that does not name this server: what a page whose name re-binds to 127.0.0.1 sends. */
function refuseForeignHost(raw: RawRequest, policy: ControlPolicy): RawResponse | null {
  const allowed = new Set([...LOOPBACK_HOSTS, ...policy.allowedHosts].map(getHostName))
  const host = getHostName(raw.headers.host ?? safeHost(raw.origin))
  if (host !== null && allowed.has(host)) return null
  return errorResponse(
    403,
    'host_not_allowed',
    'The control surface answers only at this server’s own address (start it with --allow-host <name> to add one).',
  )
}

function safeHost(origin: string): string | undefined {
  try {
    return new URL(origin).host
  } catch {
    return undefined
  }
}

/** The guard of /__mock and /idp for the dispatcher, with the names it answers to and the control token, if any. */
export function createControlGuard(options: {
  allowedHosts?: string[] | undefined
  publicOrigin?: string | undefined
  controlToken?: string | undefined
}): (request: RawRequest, path: string) => RawResponse | null {
  const policy: ControlPolicy = {
    allowedHosts: [
      ...(options.allowedHosts ?? []),
      ...(options.publicOrigin ? [new URL(options.publicOrigin).hostname] : []),
    ],
    ...(options.controlToken !== undefined && { token: options.controlToken }),
  }
  return (request, path) =>
    (path.startsWith('/idp')
      ? refuseIdpRequest
      : isDocsPath(path)
        ? refuseDocsRequest
        : refuseControlRequest)(request, policy)
}
