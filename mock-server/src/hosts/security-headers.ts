// The security headers every answer carries, decided only here (docs/security/hardening.md): helmet 8's defaults
// less upgrade-insecure-requests, which would send the app to an https port nobody listens on.
// HSTS goes only over https (RFC 6797 section 7.2).

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
