/**
 * The model's rules of one-time codes and password sign-in (docs/security/codes.md, docs/security/lockout.md,
 * api/openapi.yaml's verifyOtp, sendOtp and login): what the server must answer, and what the answer changes.
 * Pure: the moment of the call is handed in.
 */
import { FIGURES, type AccountModel } from '#contracts/model/model.ts'
import { compareElapsed, type Moment } from '#contracts/model/time.ts'

export type VerifyOutcome =
  | { kind: 'signed-in' }
  /** 400 invalid_code; `attemptsLeft` lists the values the model allows (empty: not stated by the rules). */
  | { kind: 'invalid'; attemptsLeft: number[] }
  | { kind: 'burned' }
  | { kind: 'ceiling' }
  /** A wrong code whose count of attempts is unknown: 400 invalid_code or 429 too_many_attempts. */
  | { kind: 'wrong-unknown' }
  /** Too close to call: any documented answer, the model then learns from it. */
  | { kind: 'any' }

/**
 * The answer to a `signup` code (right or wrong) for `account` at `at`, and the model updated for it. The newest
 * code of the address takes every attempt: a used, expired or superseded code presented counts as a wrong one, and
 * the fifth wrong one burns it (docs/security/codes.md). An address without a code has a decoy that counts alike.
 */
export function verifyCode(account: AccountModel, right: boolean, at: Moment): VerifyOutcome {
  if (!account.codesKnown) return { kind: 'any' }
  const { guessCeiling, guessWindowMs, codeAttempts, codeTtlMs } = FIGURES
  account.guesses = account.guesses.filter((g) => compareElapsed(g, at, guessWindowMs) !== 'past')
  const surely = account.guesses.filter((g) => compareElapsed(g, at, guessWindowMs) === 'within').length
  const possibly = account.guesses.length + account.maybeGuesses
  const ceiling = !account.knownClient
  if (ceiling && surely >= guessCeiling) return { kind: 'ceiling' }
  // Near the hourly ceiling the model stops calling codes exactly (which guess reaches 20 depends on the window).
  if (ceiling && possibly >= guessCeiling - 1) return loseTrack(account)
  const code = (account.code ??= { value: null, sentAt: at, wrong: 0, used: false, burned: false })
  const age = compareElapsed(code.sentAt, at, codeTtlMs)
  // A decoy's life is not documented: past a code's lifetime the model no longer claims to know it.
  if (age !== 'within' && (!account.exists || age === 'unknown')) return loseTrack(account)
  if (age === 'past') code.wrong = null
  if (code.burned && age === 'within') return { kind: 'burned' }
  if (right && !code.used && age === 'within') {
    code.used = true
    account.verified = true
    account.knownClient = true
    return { kind: 'signed-in' }
  }
  if (code.wrong === null) {
    // An expired code may have been purged (and a decoy taken its place): its count of attempts is unknown.
    if (ceiling) account.maybeGuesses += 1
    return { kind: 'wrong-unknown' }
  }
  code.wrong += 1
  if (ceiling) account.guesses.push(at)
  if (ceiling && surely + 1 >= guessCeiling) return { kind: 'ceiling' }
  if (code.wrong >= codeAttempts) {
    code.burned = true
    return { kind: 'burned' }
  }
  const left = codeAttempts - code.wrong
  if (!ceiling) return { kind: 'invalid', attemptsLeft: [left] }
  const byHour = [surely, account.guesses.length - 1 + account.maybeGuesses].map((n) => guessCeiling - n - 1)
  return { kind: 'invalid', attemptsLeft: [...new Set(byHour.map((n) => Math.min(left, n)))] }
}

function loseTrack(account: AccountModel): VerifyOutcome {
  account.codesKnown = false
  return { kind: 'any' }
}

/** `otp/send` for a `signup` code: 202 and a new code, or 429 within the cooldown; 'any' when too close. */
export function sendCode(account: AccountModel, at: Moment): 'sent' | 'cooldown' | 'any' {
  if (!account.lastSentAt) return 'sent'
  const since = compareElapsed(account.lastSentAt, at, FIGURES.cooldownMs)
  return since === 'within' ? 'cooldown' : since === 'past' ? 'sent' : 'any'
}

/** The model after a code was mailed at `at`: the previous one is superseded. */
export function codeSent(account: AccountModel, at: Moment): void {
  account.code = { value: null, sentAt: at, wrong: 0, used: false, burned: false }
  account.lastSentAt = at
}

export type SignInOutcome = 'signed-in' | 'unverified' | 'refused' | 'any'

/**
 * A password sign-in from this client's one address: the lock-out of (account, address) first, then the password.
 * An unknown address is refused and counted exactly like an account (docs/security/lockout.md).
 */
export function signIn(account: AccountModel, right: boolean, at: Moment): SignInOutcome {
  const lock = account.lock
  if (lock === 'unknown') return 'any'
  if (lock.lockedAt) {
    const since = compareElapsed(lock.lockedAt, at, FIGURES.lockoutMs)
    if (since === 'within') return 'refused'
    if (since === 'unknown') {
      account.lock = 'unknown'
      return 'any'
    }
    account.lock = { failures: 0, lockedAt: null }
    return signIn(account, right, at)
  }
  if (right && account.exists) {
    // "Only the right password from that address restarts its count" (docs/security/lockout.md), verified or not.
    account.lock = { failures: 0, lockedAt: null }
    if (account.verified) account.knownClient = true
    return account.verified ? 'signed-in' : 'unverified'
  }
  const failures = lock.failures + 1
  account.lock = { failures, lockedAt: failures >= FIGURES.lockoutThreshold ? at : null }
  return 'refused'
}
