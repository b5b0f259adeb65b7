// The `auth` tag: sign-in, sign-up, one-time codes, password recovery and change (external sign-in is its own
// feature, external-sign-in/operations.ts).
import type { operations } from '#api/openapi.gen.ts'
import {
  consumeCode,
  consumeResetToken,
  getResetTokenUserId,
  getCooldownSeconds,
  issueCode,
  issueResetToken,
  type Purpose,
} from '../domain/codes.ts'
import { CODE_MAIL_SUBJECTS } from '../../shared/constants.ts'
import { normalizeEmail } from '../../shared/email.ts'
import { getPasswordProblem } from '../domain/passwords.ts'
import { checkCredentials, getUserByEmail, getUserById, markVerified, setPassword } from '../domain/users.ts'
import { proveAddress, recordSignUp, resendSignUpCode } from '../domain/sign-ups.ts'
import type { UserRecord } from '../storage/records.ts'
import { rateLimited } from '../../pipeline/answers.ts'
import { type ProductContext, passwordRejected } from './context.ts'
import { signIn, signInWithPassword } from './sign-in.ts'
import type { OperationTable } from '../../pipeline/types.ts'

const INVALID_CREDENTIALS = {
  status: 401,
  body: { error: 'invalid_credentials', message: 'The e-mail address or password is incorrect.' },
} as const

type AuthOperations = Pick<
  operations,
  'login' | 'signup' | 'sendOtp' | 'verifyOtp' | 'forgotPassword' | 'updatePassword'
>

export function createAuthOperations(ops: ProductContext): OperationTable<AuthOperations> {
  const { domain, limiters, mailbox } = ops
  /**
   * The answer to a call that sent a code or found the cooldown running: `resend_after` is the remaining cooldown
   * as read before any code was written, or the whole of it for the code the call wrote. Never read again after the
   * mail: the time a mail takes to hand over (none for an address without an account) would show in it.
   */
  const accepted = (resendAfter: number) =>
    ({ status: 202, body: { accepted: true, resend_after: resendAfter } }) as const
  const wholeCooldown = () => Math.ceil(domain.config.codeCooldownMs / 1000)

  /** Mails a code unless the cooldown runs (a decoy for an address that must get none); the seconds to answer. */
  async function sendCode(email: string, purpose: Purpose, user: UserRecord | null): Promise<number> {
    const running = await getCooldownSeconds(domain, email, purpose)
    if (running > 0) return running
    // A resent sign-up code proves the same sign-up as the one before it (product/domain/sign-ups.ts).
    const code =
      purpose === 'signup' && user && !user.verified
        ? await resendSignUpCode(domain, user)
        : await issueCode(domain, email, purpose, user !== null)
    if (code !== null) await mailCode(email, purpose, code)
    return wholeCooldown()
  }

  const mailCode = async (email: string, purpose: Purpose, code: string) =>
    await mailbox.send({ to: normalizeEmail(email), subject: CODE_MAIL_SUBJECTS[purpose], purpose, code })

  return {
    async login({ body, request }) {
      const wait = await limiters.login.hit(request.ip)
      if (wait > 0) return rateLimited(wait)
      const check = await checkCredentials(domain, body.email, body.password, request.ip)
      if (check.ok)
        return (await signInWithPassword(domain, check.user, check.passwordHash)) ?? INVALID_CREDENTIALS
      if (check.reason === 'paced') return rateLimited(check.retryAfter)
      if (check.reason === 'unverified') {
        return {
          status: 403,
          body: { error: 'unverified', message: 'Confirm your e-mail address to continue.' },
        }
      }
      return INVALID_CREDENTIALS
    },

    async signup({ body, request }) {
      const wait = await limiters.mail.hit(request.ip)
      if (wait > 0) return rateLimited(wait)
      const problem = getPasswordProblem(body.password, body)
      if (problem) return passwordRejected(problem)
      // One hash on every path (taken, new or pending address), so timing tells nothing.
      const passwordHash = await domain.hasher.hash(body.password)
      // On every path too: sign-in answers `unverified` to this password, whether or not the address had an
      // account (docs/security/codes.md).
      await domain.pendingPasswords.record(normalizeEmail(body.email), passwordHash)
      const existing = await getUserByEmail(domain, body.email)
      // Read once, before any write and on every path, so no path's work shows in the answer.
      const running = await getCooldownSeconds(domain, body.email, 'signup')
      if (existing?.verified) {
        // A sign-up never changes a verified account: its owner is only told someone tried.
        if (running > 0) return accepted(running)
        await issueCode(domain, body.email, 'signup', false)
        await mailbox.send({
          to: existing.email,
          subject: 'You already have an account',
          purpose: 'account_exists',
        })
        return accepted(wholeCooldown())
      }
      const code = await recordSignUp(
        domain,
        { email: body.email, name: body.name, passwordHash },
        { mayWrite: running === 0 },
      )
      if (code !== null) await mailCode(body.email, 'signup', code)
      // Running when read: what was read. Otherwise a code was just written, by this call or one beside it.
      return accepted(running > 0 ? running : wholeCooldown())
    },

    async sendOtp({ body, request }) {
      const wait = await limiters.mail.hit(request.ip)
      if (wait > 0) return rateLimited(wait)
      const cooldown = await getCooldownSeconds(domain, body.email, body.purpose)
      if (cooldown > 0) return rateLimited(cooldown)
      const user = await getUserByEmail(domain, body.email)
      const deliverable = user !== null && (body.purpose !== 'signup' || !user.verified)
      return accepted(await sendCode(body.email, body.purpose, deliverable ? user : null))
    },

    async verifyOtp({ body, request }) {
      const wait = await limiters.verify.hit(request.ip)
      if (wait > 0) return rateLimited(wait)
      // A client locked out of an account by wrong passwords is locked out of its code sign-in too (before the
      // code is looked at: it is neither used nor counted). Unknown addresses lock alike (docs/security/lockout.md).
      const account = normalizeEmail(body.email)
      const locked = body.purpose === 'login' ? await domain.lockout.getLockSeconds(account, request.ip) : 0
      if (locked > 0) return rateLimited(locked)
      const knownClient = await domain.lockout.isKnown(account, request.ip)
      const check = await consumeCode(domain, body.email, body.purpose, body.code, { knownClient })
      // The ceiling of wrong codes per address and purpose: the per-client answer's shape, with the wait.
      if (!check.ok && check.reason === 'guess_limit') return rateLimited(check.retryAfter)
      if (!check.ok && check.reason === 'too_many_attempts') {
        return {
          status: 429,
          body: { error: 'too_many_attempts', message: 'Too many wrong attempts. Ask for a new code.' },
        }
      }
      const user = await getUserByEmail(domain, body.email)
      if (!check.ok || !user) {
        const attempts_left = check.ok ? 0 : check.attemptsLeft
        return {
          status: 400,
          body: { error: 'invalid_code', message: 'That code is wrong or has expired.', attempts_left },
        }
      }
      // The address is proven: an unverified account takes the proven sign-up's details or loses its own.
      const proven = await proveAddress(domain, user, { signup: check.ok ? check.signup : null })
      if (body.purpose === 'reset')
        return { status: 200, body: { reset_token: await issueResetToken(domain, proven.id) } }
      await domain.lockout.recordSuccess(proven.email, request.ip) // a code sign-in makes this address known too
      return signIn(domain, proven)
    },

    async forgotPassword({ body, request }) {
      const wait = await limiters.mail.hit(request.ip)
      if (wait > 0) return rateLimited(wait)
      return accepted(await sendCode(body.email, 'reset', await getUserByEmail(domain, body.email)))
    },

    async updatePassword({ body, request }) {
      const wait = await limiters.login.hit(request.ip)
      if (wait > 0) return rateLimited(wait)
      if ('reset_token' in body) {
        // Read, not used up: a refused password leaves the token for the next try. Its owner's address is no
        // password on this path either.
        const holderId = await getResetTokenUserId(domain, body.reset_token)
        const holder = holderId ? await getUserById(domain, holderId) : null
        const problem = getPasswordProblem(body.password, holder ?? {})
        if (problem) return passwordRejected(problem)
        const userId = await consumeResetToken(domain, body.reset_token)
        const user = userId ? await getUserById(domain, userId) : null
        if (!user)
          return {
            status: 400,
            body: { error: 'reset_token_invalid', message: 'This reset link is invalid or has expired.' },
          }
        await setPassword(domain, user, body.password, { reason: 'password_reset' })
        await markVerified(domain, user)
        await mailbox.send({
          to: user.email,
          subject: 'Your password was changed',
          purpose: 'password_changed',
        })
        return { status: 200, body: { updated: true } }
      }
      if (request.auth.kind !== 'valid') return { status: 401, body: { message: 'Sign in to continue.' } }
      const user = await getUserById(domain, request.auth.userId)
      if (!user)
        return { status: 401, body: { error: 'token_invalid', message: 'The access token is invalid.' } }
      const problem = getPasswordProblem(body.password, user)
      if (problem) return passwordRejected(problem)
      // A stolen access token must not buy unlimited guesses at the current password: wrong ones count towards
      // the lock-out of this (account, address) like wrong sign-in passwords (docs/security/lockout.md).
      const locked = await domain.lockout.getLockSeconds(user.email, request.ip)
      if (locked > 0) return rateLimited(locked)
      if (!(await domain.hasher.verify(user.passwordHash, body.current_password))) {
        await domain.lockout.recordFailure(user.email, request.ip)
        return {
          status: 400,
          body: { error: 'invalid_credentials', message: 'The current password is incorrect.' },
        }
      }
      await setPassword(domain, user, body.password, {
        reason: 'password_changed',
        keep: request.auth.sessionId,
      })
      await mailbox.send({
        to: user.email,
        subject: 'Your password was changed',
        purpose: 'password_changed',
      })
      return { status: 200, body: { updated: true } }
    },
  }
}
