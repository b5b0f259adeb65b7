/**
 * The reference model of the product's rules that the model-based run checks every answer against
 * (docs/contract-suite.md, "Model-based runs"). Written from docs/behaviour.md, docs/security/codes.md,
 * docs/security/lockout.md, ADR 004 and api/openapi.yaml, not from the server's code; only the figures are the
 * server's, read from its constants module (a target is assumed to run with the documented defaults).
 * Pure data and lookups: no HTTP, no clock.
 */
import {
  ACCESS_TOKEN_TTL_MS,
  CODE_COOLDOWN_MS,
  CODE_GUESS_LIMIT,
  CODE_MAX_ATTEMPTS,
  CODE_TTL_MS,
  LOCKOUT_MS,
  LOCKOUT_THRESHOLD,
  REFRESH_GRACE_MS,
} from '#mock-server/shared/constants.ts'
import type { Moment } from '#contracts/model/time.ts'

export const FIGURES = {
  accessTtlMs: ACCESS_TOKEN_TTL_MS,
  graceMs: REFRESH_GRACE_MS,
  codeTtlMs: CODE_TTL_MS,
  codeAttempts: CODE_MAX_ATTEMPTS,
  cooldownMs: CODE_COOLDOWN_MS,
  guessCeiling: CODE_GUESS_LIMIT.max,
  guessWindowMs: CODE_GUESS_LIMIT.windowMs,
  lockoutThreshold: LOCKOUT_THRESHOLD,
  lockoutMs: LOCKOUT_MS,
} as const

/** Addresses (account slots), browsers (one cookie jar each) and tabs (tokens each; tab i lives in browser i >> 1). */
export const ACCOUNT_SLOTS = 3
export const TABS = 4
export const BROWSERS = 2
export const browserOf = (tab: number): number => tab >> 1

/** The newest code of the address (an address without one has a decoy that counts alike, ADR 004). */
export interface CodeModel {
  /** Read from the mailbox when first needed; null until then (always null for a decoy). */
  value: string | null
  sentAt: Moment
  /** Wrong attempts so far, or null once the model cannot tell (a code that expired may be purged). */
  wrong: number | null
  used: boolean
  burned: boolean
}

/** A password lock-out of (account, this client's address), or unknown once an answer could not tell. */
export type LockModel = { failures: number; lockedAt: Moment | null } | 'unknown'

export interface AccountModel {
  email: string
  password: string
  /** Signed up in this run (else the address is unknown to the server). */
  exists: boolean
  verified: boolean
  code: CodeModel | null
  lastSentAt: Moment | null
  /** Wrong `signup` codes, for the hourly ceiling; `maybeGuesses` counts those the model could not tell. */
  guesses: Moment[]
  maybeGuesses: number
  /**
   * This client's address signed in to the account (password or code): its wrong codes neither meet nor feed the
   * hourly ceiling (docs/security/codes.md, "The ceiling cannot be aimed at the owner").
   */
  knownClient: boolean
  /** False once the model could not tell the codes' state (a ceiling or expiry too close to call). */
  codesKnown: boolean
  lock: LockModel
}

export type Revoked = boolean | 'unknown'

export interface SessionModel {
  email: string
  /** The family's refresh tokens in order; the last one is live. */
  refreshTokens: string[]
  /** The pair the last rotation issued (the grace answer repeats it), and when. */
  livePair: { token: string; refresh_token: string }
  rotatedAt: Moment | null
  accessTokens: Map<string, Moment>
  revoked: Revoked
  /** The cookie its sign-in set (`sid=<value>`). */
  cookie: string
}

export interface TabModel {
  token: string | null
  refreshToken: string | null
  /** Refresh tokens this tab held before its current one. */
  retired: string[]
}

export interface Model {
  /** How far the run moved the server's clock (ms). */
  offsetMs: number
  accounts: AccountModel[]
  sessions: SessionModel[]
  tabs: TabModel[]
  /** Each browser's session cookie (`sid=…`), or null. */
  cookies: (string | null)[]
  /** Whether the target's /__mock can be used (the clock, a reset). */
  control: boolean
  /** Whether the codes it mails can be read: through /__mock, or the mail it sent (contracts/support/code-source.ts). */
  codes: boolean
}

const PASSWORD = 'a long enough passphrase'

/** A fresh model: no account, no session; `runId` makes the run's addresses its own. */
export function createModel(runId: string, control: boolean, codes = control): Model {
  return {
    offsetMs: 0,
    accounts: Array.from({ length: ACCOUNT_SLOTS }, (_, slot) => ({
      email: `model-${runId}-${slot}@example.test`,
      password: PASSWORD,
      exists: false,
      verified: false,
      code: null,
      lastSentAt: null,
      guesses: [],
      maybeGuesses: 0,
      knownClient: false,
      codesKnown: true,
      lock: { failures: 0, lockedAt: null },
    })),
    sessions: [],
    tabs: Array.from({ length: TABS }, () => ({ token: null, refreshToken: null, retired: [] })),
    cookies: Array.from({ length: BROWSERS }, () => null),
    control,
    codes,
  }
}

/** The session whose family holds `refreshToken`, and the token's place in it. */
export function findByRefresh(model: Model, refreshToken: string) {
  for (const session of model.sessions) {
    const index = session.refreshTokens.indexOf(refreshToken)
    if (index >= 0) return { session, index }
  }
  return null
}

export const findByAccess = (model: Model, token: string): SessionModel | undefined =>
  model.sessions.find((session) => session.accessTokens.has(token))

/** The session a browser's cookie (`sid=<value>`) names. */
export const findByCookie = (model: Model, cookie: string): SessionModel | undefined =>
  model.sessions.find((session) => session.cookie === cookie)

/** The `pick`-th (modulo) index of `items` that `holds`, or null when none does: commands choose among candidates. */
export function pickIndex<T>(
  items: readonly T[],
  pick: number,
  holds: (item: T, index: number) => boolean,
): number | null {
  const candidates = items.flatMap((item, index) => (holds(item, index) ? [index] : []))
  return candidates.length === 0 ? null : candidates[pick % candidates.length]!
}
