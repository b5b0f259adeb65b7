import { describe, expect, test } from 'vitest'
import { codeSent, sendCode, signIn, verifyCode } from '#contracts/model/code-rules.ts'
import { createModel, FIGURES, type AccountModel } from '#contracts/model/model.ts'

const at = (ms: number) => ({ from: ms, to: ms + 5 })

function pendingAccount(): AccountModel {
  const account = createModel('unit', true).accounts[0]!
  account.exists = true
  codeSent(account, at(0))
  return account
}

describe('verifyCode', () => {
  test('the fifth wrong code burns it; then even the right one is too_many_attempts', () => {
    const account = pendingAccount()
    const answers = [1, 2, 3, 4, 5].map((n) => verifyCode(account, false, at(n * 100)))
    expect(answers.slice(0, 4)).toEqual(
      [4, 3, 2, 1].map((left) => ({ kind: 'invalid', attemptsLeft: [left] })),
    )
    expect(answers[4]).toEqual({ kind: 'burned' })
    expect(verifyCode(account, true, at(1_000))).toEqual({ kind: 'burned' })
  })

  test('a used code presented again counts as a wrong one', () => {
    const account = pendingAccount()
    expect(verifyCode(account, true, at(100))).toEqual({ kind: 'signed-in' })
    expect(verifyCode(account, true, at(200))).toEqual({ kind: 'invalid', attemptsLeft: [4] })
  })

  test('past its lifetime a code is refused, and its count of attempts is no longer known', () => {
    const account = pendingAccount()
    expect(verifyCode(account, true, at(FIGURES.codeTtlMs + 1_000))).toEqual({ kind: 'wrong-unknown' })
  })

  test('near the hourly ceiling the model stops calling codes exactly', () => {
    const account = pendingAccount()
    account.guesses = Array.from({ length: FIGURES.guessCeiling - 1 }, (_, n) => at(n))
    expect(verifyCode(account, false, at(100))).toEqual({ kind: 'any' })
    expect(account.codesKnown).toBe(false)
  })

  test('a new code supersedes the old one and starts a fresh count', () => {
    const account = pendingAccount()
    verifyCode(account, false, at(100))
    expect(sendCode(account, at(1_000))).toBe('cooldown')
    expect(sendCode(account, at(FIGURES.cooldownMs + 1_000))).toBe('sent')
    codeSent(account, at(FIGURES.cooldownMs + 1_000))
    expect(verifyCode(account, false, at(FIGURES.cooldownMs + 2_000))).toEqual({
      kind: 'invalid',
      attemptsLeft: [4],
    })
  })
})

describe('signIn', () => {
  test('ten wrong passwords lock the address out, the right one included, until the lock-out ends', () => {
    const account = pendingAccount()
    account.verified = true
    for (let n = 0; n < FIGURES.lockoutThreshold; n += 1)
      expect(signIn(account, false, at(n))).toBe('refused')
    expect(signIn(account, true, at(1_000))).toBe('refused')
    expect(signIn(account, true, at(FIGURES.lockoutMs + 1_000))).toBe('signed-in')
  })

  test('the right password of an unverified account is 403 unverified; an unknown address is refused', () => {
    expect(signIn(pendingAccount(), true, at(0))).toBe('unverified')
    expect(signIn(createModel('unit', true).accounts[1]!, true, at(0))).toBe('refused')
  })
})
