/**
 * The commands of a model-based run that make and sign in accounts: sign up, resend a code, verify a code (the
 * right one, read from the /__mock mailbox, or a wrong one), sign in with the password. Each sends one call through
 * the validating agent, checks the answer against the model, then applies it to the model.
 */
import type { AsyncCommand } from 'fast-check'
import { codeSent, sendCode, signIn, verifyCode } from '#contracts/model/code-rules.ts'
import { pickIndex, type Model } from '#contracts/model/model.ts'
import { adoptSignIn } from '#contracts/model/sign-in.ts'
import { requireAnswer, requireThat, send, type World } from '#contracts/model/world.ts'

type Command = AsyncCommand<Model, World>
const slotName = (slot: number): string => 'abc'[slot]!

export class SignUp implements Command {
  constructor(readonly slot: number) {}
  check = (m: Readonly<Model>) => !m.accounts[this.slot]!.exists
  async run(m: Model, w: World) {
    w.steps.push(this.toString())
    const account = m.accounts[this.slot]!
    const body = { name: 'Model User', email: account.email, password: account.password }
    const { res, at } = await send(m, w.api.post('/api/auth/signup').send(body))
    requireAnswer(this.toString(), res, [{ status: 202 }])
    account.exists = true
    codeSent(account, at)
  }
  toString = () => `signUp(${slotName(this.slot)})`
}

const pending = (m: Readonly<Model>, pick: number) =>
  pickIndex(m.accounts, pick, (a) => a.exists && !a.verified)

/** Asks for a new `signup` code for the `pick`-th account still pending. */
export class SendCode implements Command {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => pending(m, this.pick) !== null
  async run(m: Model, w: World) {
    const slot = pending(m, this.pick)!
    w.steps.push(`sendCode(${slotName(slot)})`)
    const account = m.accounts[slot]!
    const body = { email: account.email, purpose: 'signup' }
    const { res, at } = await send(m, w.api.post('/api/auth/otp/send').send(body))
    const expected = sendCode(account, at)
    const sent = { status: 202 }
    const cooldown = { status: 429, error: 'rate_limited' }
    const allowed = expected === 'sent' ? [sent] : expected === 'cooldown' ? [cooldown] : [sent, cooldown]
    if (expected === 'any') w.loose += 1
    if (requireAnswer(`sendCode(${slotName(slot)})`, res, allowed) === sent) codeSent(account, at)
  }
  toString = () => `sendCode(pending #${this.pick})`
}

const existing = (m: Readonly<Model>, pick: number) => pickIndex(m.accounts, pick, (a) => a.exists)

/** A `signup` code: the right one (read from the mailbox) for the `slot`-th existing account, or a wrong one. */
export class Verify implements Command {
  constructor(
    readonly slot: number,
    readonly tab: number,
    readonly right: boolean,
  ) {}
  private slotIn = (m: Readonly<Model>) => (this.right ? existing(m, this.slot) : this.slot)
  check = (m: Readonly<Model>) => !this.right || (m.codes && this.slotIn(m) !== null)
  async run(m: Model, w: World) {
    const slot = this.slotIn(m)!
    const name = this.describe(slot)
    w.steps.push(name)
    const account = m.accounts[slot]!
    if (account.code && account.code.value === null && w.mock && account.exists)
      account.code.value = await w.mock.latestCode(account.email, 'signup')
    const known = account.code?.value ?? null
    const code = this.right ? known! : known === '000000' ? '000001' : '000000'
    const body = { email: account.email, code, purpose: 'signup' }
    const { res, at } = await send(m, w.api.post('/api/auth/otp/verify').send(body))
    const outcome = verifyCode(account, this.right, at)
    if (outcome.kind === 'any') {
      w.loose += 1
      requireAnswer(name, res, [{ status: 200 }, { status: 400 }, { status: 429 }])
      if (res.status === 200) {
        account.verified = true
        account.knownClient = true
        if (account.code) account.code.used = true
        adoptSignIn(m, this.tab, account.email, res, at, name)
      }
    } else if (outcome.kind === 'signed-in') {
      requireAnswer(name, res, [{ status: 200 }])
      adoptSignIn(m, this.tab, account.email, res, at, name)
    } else if (outcome.kind === 'invalid') {
      requireAnswer(name, res, [{ status: 400, error: 'invalid_code' }])
      const left = (res.body as { attempts_left?: number }).attempts_left
      if (outcome.attemptsLeft.length > 0)
        requireThat(
          name,
          outcome.attemptsLeft.includes(left!),
          `attempts_left ${left}, the model expected ${outcome.attemptsLeft.join(' or ')}`,
        )
    } else if (outcome.kind === 'wrong-unknown') {
      w.loose += 1
      const answer = requireAnswer(name, res, [
        { status: 400, error: 'invalid_code' },
        { status: 429, error: 'too_many_attempts' },
      ])
      account.code!.burned = answer.status === 429
    } else {
      const error = outcome.kind === 'burned' ? 'too_many_attempts' : 'rate_limited'
      requireAnswer(name, res, [{ status: 429, error }])
    }
  }
  private describe = (slot: number) =>
    `verify(${slotName(slot)}, tab ${this.tab}, ${this.right ? 'right code' : 'wrong code'})`
  toString = () =>
    this.right ? `verify(existing #${this.slot}, tab ${this.tab}, right code)` : this.describe(this.slot)
}

export class SignIn implements Command {
  constructor(
    readonly slot: number,
    readonly tab: number,
    readonly right: boolean,
  ) {}
  check = () => true
  async run(m: Model, w: World) {
    w.steps.push(this.toString())
    const account = m.accounts[this.slot]!
    const password = this.right ? account.password : 'not the passphrase at all'
    const body = { email: account.email, password }
    const { res, at } = await send(m, w.api.post('/api/auth/login').send(body))
    const outcome = signIn(account, this.right, at)
    const name = this.toString()
    const answers = {
      'signed-in': { status: 200 },
      unverified: { status: 403, error: 'unverified' },
      refused: { status: 401, error: 'invalid_credentials' },
    } as const
    if (outcome === 'any') w.loose += 1
    const allowed = outcome === 'any' ? Object.values(answers) : [answers[outcome]]
    const answer = requireAnswer(name, res, allowed)
    if (answer === answers['signed-in']) {
      account.lock = { failures: 0, lockedAt: null }
      account.knownClient = true
      adoptSignIn(m, this.tab, account.email, res, at, name)
    }
  }
  toString = () =>
    `signIn(${slotName(this.slot)}, tab ${this.tab}, ${this.right ? 'right password' : 'wrong password'})`
}
