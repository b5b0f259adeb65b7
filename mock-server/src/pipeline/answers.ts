// Answers and checks that operations of every feature share: the documented refusals (400 with its field, 429 with
// its wait), the one safe shape of a redirect path, and the origin a request reached this server at.

/** The origin a request reached this server at, as people see it: the configured public origin, or the request's. */
export function getPublicOrigin(publicOrigin: string | undefined, request: { origin: string }): string {
  return publicOrigin ?? request.origin
}

/**
 * A same-origin relative path (no scheme, no host, no `//`), safe to redirect to. Only printable ASCII: a
 * `Location` header cannot carry anything else (DEL, U+0100, U+2028 would fail when the answer is sent).
 */
export function isSafeRedirectPath(value: string): boolean {
  if (!/^\/[\x21-\x7e]*$/.test(value) || value.startsWith('//') || value.includes('\\')) return false
  // A path the browser normalizes to a leading `//` (`/.//evil.example`) names another host.
  return !new URL(value, 'http://same.origin').pathname.startsWith('//')
}

export function rateLimited(retryAfter: number) {
  return {
    status: 429 as const,
    headers: { 'retry-after': String(retryAfter) },
    body: {
      error: 'rate_limited' as const,
      message: `Too many attempts. Try again in ${retryAfter} seconds.`,
      retry_after: retryAfter,
    },
  }
}

export function validationFailed(field: string, reason: string) {
  return {
    status: 400 as const,
    body: {
      error: 'validation_failed' as const,
      message: `${field}: ${reason}`,
      fields: { [field]: reason },
    },
  }
}

/**
 * A well-formed request a rule refuses, one the schema cannot state: its own code, and the field it names.
 * @example refusedByRule('password_rejected', 'password', 'This password is too common.')
 */
export function refusedByRule<Code extends string>(error: Code, field: string, reason: string) {
  return {
    status: 400 as const,
    body: { error, message: `${field}: ${reason}`, fields: { [field]: reason } },
  }
}
