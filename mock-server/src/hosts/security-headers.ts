// The security headers every answer carries, decided here and nowhere else (docs/security/hardening.md): the values
// helmet 8 gives by default, less upgrade-insecure-requests (over plain http on 127.0.0.1 it would send the app's
// own requests to an https port nobody listens on), with the session recorder's blob: worker allowed, and HSTS only
// over https (RFC 6797 section 7.2: never over plain http).

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "base-uri 'self'",
  "font-src 'self' https: data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "img-src 'self' data:",
  "object-src 'none'",
  "script-src 'self'",
  "script-src-attr 'none'",
  "style-src 'self' https: 'unsafe-inline'",
  // The session recorder starts its worker from a blob: URL; nothing else may.
  "worker-src 'self' blob:",
].join(';')

/** Names lower-cased, as a Node host writes them. */
const ALWAYS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
}

/** A year, subdomains included. */
const OVER_HTTPS: Readonly<Record<string, string>> = {
  ...ALWAYS,
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
}

/**
 * The headers for an answer reached over https (`secure`, read from the trusted hop: pipeline/forwarded-proto.ts) or not.
 * @example securityHeaders(false)['x-frame-options'] // 'SAMEORIGIN'
 */
export function securityHeaders(secure: boolean): Readonly<Record<string, string>> {
  return secure ? OVER_HTTPS : ALWAYS
}
