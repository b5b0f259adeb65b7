// The figures the product's rules run on, as the product computes them (product/settings.ts) and the control
// surface reports them (control/settings.ts, `GET /__mock/settings`). One shape here, since features do not import
// each other. Every figure is a rule's, never a secret: no key, no token, no address.

/** At most `max` in any window of `windowMs`. */
export interface WindowLimit {
  max: number
  windowMs: number
}

export interface RuleSettings {
  accessTokenTtlMs: number
  refreshTokenTtlMs: number
  refreshGraceMs: number
  codeTtlMs: number
  codeCooldownMs: number
  codeMaxAttempts: number
  codeGuessLimit: WindowLimit
  loginRateLimit: WindowLimit
  mailRateLimit: WindowLimit
  verifyRateLimit: WindowLimit
  lockout: { threshold: number; lockMs: number }
  maxDecoys: number
  maxUnverifiedAccounts: number
}
