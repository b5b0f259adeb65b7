// What `GET /__mock/settings` answers (api/control.openapi.yaml, MockSettings): the rules' figures, in the wire's
// names. The product computes them (product/settings.ts); core.ts hands them in, as features do not import each other.
import type { components } from '#api/control.gen.ts'
import type { RuleSettings, WindowLimit } from '../shared/rule-settings.ts'

export type MockSettings = components['schemas']['MockSettings']
export type { RuleSettings }

const limitBody = ({ max, windowMs }: WindowLimit) => ({ max, window_ms: windowMs })

/**
 * The answer's body. Each field is picked by name, so a figure added to RuleSettings is not sent unreviewed.
 * @example settingsBody(product.settings, false).refresh_grace_ms // 10000
 */
export function settingsBody(settings: RuleSettings, production: boolean): MockSettings {
  return {
    production,
    access_token_ttl_ms: settings.accessTokenTtlMs,
    refresh_token_ttl_ms: settings.refreshTokenTtlMs,
    refresh_grace_ms: settings.refreshGraceMs,
    code_ttl_ms: settings.codeTtlMs,
    code_cooldown_ms: settings.codeCooldownMs,
    code_max_attempts: settings.codeMaxAttempts,
    code_guess_limit: limitBody(settings.codeGuessLimit),
    login_rate_limit: limitBody(settings.loginRateLimit),
    mail_rate_limit: limitBody(settings.mailRateLimit),
    verify_rate_limit: limitBody(settings.verifyRateLimit),
    lockout: { threshold: settings.lockout.threshold, lock_ms: settings.lockout.lockMs },
    max_decoys: settings.maxDecoys,
    max_unverified_accounts: settings.maxUnverifiedAccounts,
  }
}
