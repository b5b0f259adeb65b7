// Flag values main.ts refuses at start rather than accept silently (docs/security/hardening.md): each check
// throws a "Failed to start" message naming the flag, which main.ts prints before exiting with 2.
import { isIP } from '../shared/is-ip.ts'
import { isLoopbackUrl } from '../shared/loopback.ts'

/** One DNS label: letters, digits and inner hyphens, 1 to 63 characters (RFC 1123). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i

/**
 * The control token from --control-token or MOCK_CONTROL_TOKEN. Only visible ASCII is taken, since anything
 * else would not survive an HTTP header.
 * @example parseControlToken(undefined, 'k3y', 'MOCK_CONTROL_TOKEN') // 'k3y'
 */
export function parseControlToken(value: string | undefined, source: string): string | undefined {
  if (value === undefined) return undefined
  if (value === '') throw new Error(`Failed to start: ${source} is empty; give a token, or leave it unset.`)
  if (!/^[\x21-\x7e]+$/.test(value))
    throw new Error(
      `Failed to start: ${source} may hold only printable ASCII without spaces (0x21 to 0x7E); it has other characters.`,
    )
  // /__mock counts no wrong tokens: a short one could be guessed by trying them all.
  if (value.length < CONTROL_TOKEN_MIN_LENGTH)
    throw new Error(
      `Failed to start: ${source} has ${value.length} character${value.length === 1 ? '' : 's'}; give at least ${CONTROL_TOKEN_MIN_LENGTH} (e.g. openssl rand -hex 16).`,
    )
  return value
}

/** The shortest control token a start takes: 16 random hex characters are 64 bits to guess. */
export const CONTROL_TOKEN_MIN_LENGTH = 16

/**
 * An --allow-host value: a host name (labels of letters, digits and hyphens) or an IP literal (IPv6 with or
 * without brackets); no port, scheme, path or wildcard.
 * @example parseAllowedHost('qa.internal') // 'qa.internal'; parseAllowedHost('http://qa') // throws
 */
export function parseAllowedHost(value: string): string {
  const bare = value.replace(/^\[(.*)\]$/, '$1')
  const name = value.replace(/\.$/, '')
  if (isIP(bare) !== 0) return value
  if (name.length > 0 && name.length <= 253 && name.split('.').every((label) => LABEL.test(label)))
    return value
  throw new Error(
    `Failed to start: --allow-host takes a host name or an IP address (e.g. qa.internal), not ${JSON.stringify(value)}.`,
  )
}

/**
 * The --cors-origin values as browsers write them in `Origin`. `*` is refused: the API's answers carry
 * credentials, which no browser allows with a wildcard (docs/decisions/020-deploying-on-two-origins.md).
 * @example parseCorsOrigins(['https://App.example:443,http://127.0.0.1:5173']) // ['https://app.example', 'http://127.0.0.1:5173']
 */
export function parseCorsOrigins(values: readonly string[]): string[] {
  const origins = values.flatMap((value) => value.split(',')).map((value) => value.trim())
  return [...new Set(origins.map(parseCorsOrigin))]
}

function parseCorsOrigin(value: string): string {
  const refuse = (why: string) =>
    new Error(
      `Failed to start: --cors-origin takes origins like https://app.example or http://127.0.0.1:5173 (scheme, host, optional port), not ${JSON.stringify(value)}: ${why}.`,
    )
  if (value.includes('*')) throw refuse('a wildcard cannot go with credentials; name each origin')
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw refuse('it is no URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refuse('only http and https pages call the API')
  if (url.username || url.password) throw refuse('an origin has no user or password')
  // `new URL` adds the `/` an origin lacks; anything more is a path, a query or a fragment.
  if (!/^[a-z][a-z0-9+.-]*:\/\/[^/?#]+$/i.test(value))
    throw refuse('an origin has no path, query or fragment')
  return url.origin
}

/**
 * --public-origin: an http(s) origin (scheme, host, optional port; no path, query or credentials), as a browser
 * writes it.
 * @example parsePublicOrigin('https://qa.example/') // 'https://qa.example'
 */
export function parsePublicOrigin(value: string | undefined): string | undefined {
  if (value === undefined) return undefined
  const refuse = () =>
    new Error(
      `Failed to start: --public-origin takes an origin such as https://qa.example, not ${JSON.stringify(value)}.`,
    )
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw refuse()
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && !url.username && !url.password
  if (!['http:', 'https:'].includes(url.protocol) || !bare) throw refuse()
  return url.origin
}

/**
 * --oidc-issuer with --oidc-client-id: both or neither. The issuer is https, or http on loopback, as openid-client
 * demands. The secret is never echoed.
 * @example parseOidc('https://id.example', 'auth-shell', undefined) // { issuer: 'https://id.example', clientId: 'auth-shell' }
 */
export function parseOidc(
  issuer: string | undefined,
  clientId: string | undefined,
  secret: string | undefined,
): { issuer: string; clientId: string; clientSecret?: string } | undefined {
  if (issuer === undefined && clientId === undefined) return undefined
  if (issuer === undefined || clientId === undefined || clientId === '')
    throw new Error('Failed to start: --oidc-issuer and --oidc-client-id go together.')
  let url: URL
  try {
    url = new URL(issuer)
  } catch {
    throw new Error(`Failed to start: --oidc-issuer is no URL: ${JSON.stringify(issuer)}.`)
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackUrl(url)))
    throw new Error(
      'Failed to start: --oidc-issuer must be https (http only on localhost, 127.0.0.0/8 or ::1).',
    )
  if (secret === '')
    throw new Error('Failed to start: OIDC_CLIENT_SECRET is empty; give a secret, or leave it unset.')
  return { issuer, clientId, ...(secret !== undefined && { clientSecret: secret }) }
}

/** --trust-proxy takes a count of proxies; a word like `true` is refused rather than read as "all". */
export function parseHops(value: string | undefined): number {
  if (value === undefined) return 0
  if (!/^\d{1,2}$/.test(value))
    throw new Error(
      `Failed to start: --trust-proxy takes the number of proxies in front (e.g. 1), not ${JSON.stringify(value)}.`,
    )
  return Number(value)
}

/**
 * The port from --port or PORT: decimal digits up to 65535, 0 for a free one. An empty value is refused, never
 * read as 0 (Number('') is 0, which once started the server on a random port); flags.ts reads a blank PORT as unset.
 * @example parsePort('4010', 'PORT') // 4010; parsePort('', '--port') // throws
 */
export function parsePort(value: string, source: string): number {
  if (value.trim() === '')
    throw new Error(`Failed to start: ${source} is empty; give a port, or leave it out.`)
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new Error(`Failed to start: ${source} takes a port from 0 to 65535, not ${JSON.stringify(value)}.`)
  return Number(value)
}

/**
 * The address from --host or HOST. An empty one is refused: Node binds '' to every interface, where the one who
 * left it blank meant the default (127.0.0.1). An IPv6 address may come in brackets, as URLs (and the start line)
 * write it.
 */
export function parseHost(value: string, source: string): string {
  if (value.trim() === '')
    throw new Error(`Failed to start: ${source} is empty; give an address, or leave it out (127.0.0.1).`)
  return /^\[[0-9a-f:.]+\]$/i.test(value) ? value.slice(1, -1) : value
}

/** Whether a listening socket's address (`server.address().address`) takes calls on every interface. */
export function bindsEveryInterface(address: string): boolean {
  return ['0.0.0.0', '::', '::ffff:0.0.0.0'].includes(address.toLowerCase())
}

/** `host` as a URL writes it: an IPv6 address in brackets. */
export function urlHost(host: string): string {
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
}
