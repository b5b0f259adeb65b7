// The figures the product's rules run on, defaults filled in: what `GET /__mock/settings` reports (core.ts hands
// them to the control surface), so a suite can tell whether a server is the one a check was written for.
import * as defaults from '../shared/constants.ts'
import type { DomainConfig } from './domain/context.ts'
import type { GuessLimit } from './domain/guess-log.ts'
import type { RateLimit } from './domain/rate-limit.ts'
import type { RuleSettings } from '../shared/rule-settings.ts'

export type ProductSettings = RuleSettings

export interface SettingsOptions {
  loginRateLimit?: RateLimit | undefined
  mailRateLimit?: RateLimit | undefined
  verifyRateLimit?: RateLimit | undefined
  codeGuessLimit?: GuessLimit | undefined
  maxDecoys?: number | undefined
  maxUnverifiedAccounts?: number | undefined
}

/** The settings of a product whose domain runs on `config` and was built with `options`. */
export function productSettings(config: DomainConfig, options: SettingsOptions): ProductSettings {
  return {
    accessTokenTtlMs: config.accessTokenTtlMs,
    refreshTokenTtlMs: config.refreshTokenTtlMs,
    refreshGraceMs: config.refreshGraceMs,
    codeTtlMs: config.codeTtlMs,
    codeCooldownMs: config.codeCooldownMs,
    codeMaxAttempts: config.codeMaxAttempts,
    codeGuessLimit: options.codeGuessLimit ?? defaults.CODE_GUESS_LIMIT,
    loginRateLimit: options.loginRateLimit ?? defaults.LOGIN_RATE_LIMIT,
    mailRateLimit: options.mailRateLimit ?? defaults.MAIL_RATE_LIMIT,
    verifyRateLimit: options.verifyRateLimit ?? defaults.VERIFY_RATE_LIMIT,
    lockout: { threshold: defaults.LOCKOUT_THRESHOLD, lockMs: defaults.LOCKOUT_MS },
    maxDecoys: options.maxDecoys ?? defaults.MAX_DECOYS,
    maxUnverifiedAccounts: options.maxUnverifiedAccounts ?? defaults.MAX_UNVERIFIED_ACCOUNTS,
  }
}
