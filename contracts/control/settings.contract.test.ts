// GET /__mock/settings: the rules' figures a server runs on, defaults filled in, never a secret
// (api/control.openapi.yaml; the contract suite compares a check's server options with them, docs/contract-suite.md).
import { expect, test } from 'vitest'
import { createTestServer } from '#contracts/fixtures.ts'
import * as defaults from '#mock-server/shared/constants.ts'

const limit = ({ max, windowMs }: { max: number; windowMs: number }) => ({ max, window_ms: windowMs })

test('reports every figure the rules run on, the defaults when the server was given none', async () => {
  // Asked for explicitly, so a target with other figures makes this not checkable rather than failed.
  const { api } = await createTestServer({
    refreshGraceMs: defaults.REFRESH_GRACE_MS,
    accessTokenTtlMs: defaults.ACCESS_TOKEN_TTL_MS,
    refreshTokenTtlMs: defaults.REFRESH_TOKEN_TTL_MS,
    codeCooldownMs: defaults.CODE_COOLDOWN_MS,
    loginRateLimit: defaults.LOGIN_RATE_LIMIT,
    mailRateLimit: defaults.MAIL_RATE_LIMIT,
    verifyRateLimit: defaults.VERIFY_RATE_LIMIT,
    codeGuessLimit: defaults.CODE_GUESS_LIMIT,
    maxDecoys: defaults.MAX_DECOYS,
    maxUnverifiedAccounts: defaults.MAX_UNVERIFIED_ACCOUNTS,
  })
  expect((await api.get('/__mock/settings').expect(200)).body).toEqual({
    production: false,
    access_token_ttl_ms: defaults.ACCESS_TOKEN_TTL_MS,
    refresh_token_ttl_ms: defaults.REFRESH_TOKEN_TTL_MS,
    refresh_grace_ms: defaults.REFRESH_GRACE_MS,
    code_ttl_ms: defaults.CODE_TTL_MS,
    code_cooldown_ms: defaults.CODE_COOLDOWN_MS,
    code_max_attempts: defaults.CODE_MAX_ATTEMPTS,
    code_guess_limit: limit(defaults.CODE_GUESS_LIMIT),
    login_rate_limit: limit(defaults.LOGIN_RATE_LIMIT),
    mail_rate_limit: limit(defaults.MAIL_RATE_LIMIT),
    verify_rate_limit: limit(defaults.VERIFY_RATE_LIMIT),
    lockout: { threshold: defaults.LOCKOUT_THRESHOLD, lock_ms: defaults.LOCKOUT_MS },
    max_decoys: defaults.MAX_DECOYS,
    max_unverified_accounts: defaults.MAX_UNVERIFIED_ACCOUNTS,
  })
})

test('reports the figures a server was built with', async () => {
  const { api } = await createTestServer({
    refreshGraceMs: 2_500,
    accessTokenTtlMs: 30_000,
    loginRateLimit: { max: 3, windowMs: 60_000 },
    maxDecoys: 3,
  })
  expect((await api.get('/__mock/settings').expect(200)).body).toMatchObject({
    refresh_grace_ms: 2_500,
    access_token_ttl_ms: 30_000,
    login_rate_limit: { max: 3, window_ms: 60_000 },
    max_decoys: 3,
  })
})

test('answers only with the control token, and never carries it', async () => {
  const token = 'settings-control-token'
  const server = await createTestServer({ controlToken: token })
  expect((await server.stranger.get('/__mock/settings').expect(401)).body.error).toBe(
    'control_token_required',
  )
  const { text } = await server.api.get('/__mock/settings').expect(200)
  expect(text).not.toContain(token)
  expect(text).not.toMatch(/secret|key|token"/i)
})
