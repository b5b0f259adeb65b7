// One simulated user of the cluster soak: sign up, the code from the mailbox, then cycles of sign-in, refreshes with
// each new token (a password change for some), /api/me and log-out. What the server acknowledged is written in the
// user's ledger, for the check at the end (verify.ts). A call that went unanswered was retried (http.ts); an answer
// that tells the lost try was applied (a used code, a changed password) is read as a client would read it.
import type { Answer, Caller } from './http.ts'
import { readSignUpCode } from './mailbox.ts'
import type { Cluster } from '#harness/cluster.ts'
import type { JourneyConfig, SessionEntry, SoakUser, Tally } from './ledger.ts'

/** Thrown to end a user's journey once a call went wrong (already counted). */
class JourneyEnded extends Error {}

const describe = (answer: Answer) => `${answer.status} ${String(answer.body.error ?? '')}`.trim()

export function createJourney(
  call: Caller,
  cluster: Cluster,
  controlToken: string,
  config: JourneyConfig,
  tally: Tally,
) {
  const fail = (user: SoakUser, what: string, answer: Answer): never => {
    tally.failures.push(`${user.email} ${what}: ${describe(answer)}`)
    throw new JourneyEnded()
  }
  /** A 401 to a session the user still holds: signed out, wrongly. */
  const signedOut = (user: SoakUser, session: SessionEntry, what: string, answer: Answer): never => {
    tally.wrongSignOuts.push(
      `${user.email} ${what}: ${describe(answer)}${answer.retried ? ' (after a retry)' : ''}`,
    )
    session.expected = 'refused_during_run'
    throw new JourneyEnded()
  }
  const bearer = (session: SessionEntry) => ({ authorization: `Bearer ${session.token}` })
  const open = (user: SoakUser, answer: Answer): SessionEntry => {
    const session: SessionEntry = {
      token: String(answer.body.token),
      refreshToken: String(answer.body.refresh_token),
      expected: 'live',
    }
    user.sessions.push(session)
    return session
  }

  async function signIn(user: SoakUser): Promise<SessionEntry> {
    const answer = await call(user.address, 'POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    })
    return answer.status === 200 ? open(user, answer) : withdrawnOr(user, 'sign-in', answer)
  }

  async function signUp(user: SoakUser): Promise<void> {
    const body = { name: 'Soak', email: user.email, password: user.password }
    const answer = await call(user.address, 'POST', '/api/auth/signup', { body })
    if (answer.status !== 202) fail(user, 'sign-up', answer)
    user.account = 'pending'
    // Sent twice, a sign-up may count as two: its password is withdrawn (docs/security/codes.md).
    user.signUpRetried = answer.retried
    const used = new Set<string>()
    let port = answer.port
    for (;;) {
      const code = await readSignUpCode({ call, cluster, controlToken, tally }, user, port, used)
      used.add(code)
      const verified = await call(user.address, 'POST', '/api/auth/otp/verify', {
        body: { email: user.email, purpose: 'signup', code },
      })
      port = verified.port
      if (verified.status === 200) {
        user.account = 'verified'
        open(user, verified)
        return
      }
      // A try that got no answer used the code: it proved the address (the password signs in), or died before
      // (still unverified: a new code is asked for).
      if (verified.status !== 400 || !verified.retried || used.size > 3) fail(user, 'code', verified)
      const login = await call(user.address, 'POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      })
      if (login.status === 403) continue
      user.account = 'verified'
      if (login.status === 200) open(user, login)
      else withdrawnOr(user, 'sign-in', login)
      return
    }
  }

  /** A password refused after a retried sign-up is the documented withdrawal; anything else a failure. */
  const withdrawnOr = (user: SoakUser, what: string, answer: Answer): never => {
    if (answer.status !== 401 || !user.signUpRetried || user.changedPassword) fail(user, what, answer)
    user.account = 'withdrawn'
    tally.withdrawn.push(user.email)
    throw new JourneyEnded()
  }

  async function refresh(user: SoakUser, session: SessionEntry): Promise<void> {
    const answer = await call(user.address, 'POST', '/api/refresh_token', {
      body: { refresh_token: session.refreshToken },
    })
    if (answer.status === 401) signedOut(user, session, 'refresh', answer)
    if (answer.status !== 200) fail(user, 'refresh', answer)
    session.token = String(answer.body.token)
    session.refreshToken = String(answer.body.refresh_token)
    tally.rotations += 1
  }

  async function changePassword(user: SoakUser, session: SessionEntry): Promise<void> {
    const next = `soak passphrase ${user.index} changed`
    const answer = await call(user.address, 'POST', '/api/auth/update_password', {
      body: { current_password: user.password, password: next },
      headers: bearer(session),
    })
    if (answer.status === 401) signedOut(user, session, 'password change', answer)
    // A wrong current password after a try without an answer: that try changed it.
    const appliedByLostTry =
      answer.status === 400 && answer.retried && answer.body.error === 'invalid_credentials'
    if (answer.status !== 200 && !appliedByLostTry) fail(user, 'password change', answer)
    user.password = next
    user.changedPassword = true
    tally.passwordChanges += 1
    // Every other session of the account ends with the change; this one stays.
    for (const other of user.sessions)
      if (other !== session && other.expected === 'live') other.expected = 'revoked'
  }

  async function me(user: SoakUser, session: SessionEntry): Promise<void> {
    const answer = await call(user.address, 'GET', '/api/me', { headers: bearer(session) })
    if (answer.status === 401) signedOut(user, session, '/api/me', answer)
    if (answer.status !== 200) fail(user, '/api/me', answer)
  }

  async function logOut(user: SoakUser, session: SessionEntry): Promise<void> {
    const answer = await call(user.address, 'DELETE', '/api/_auth/session', {
      headers: { ...bearer(session), 'sec-fetch-site': 'same-origin' },
    })
    // A 401 after a try without an answer: that try signed it out.
    if (answer.status !== 200 && !(answer.status === 401 && answer.retried)) fail(user, 'log-out', answer)
    session.expected = 'logged_out'
  }

  /** The whole journey; a call that went wrong ends it (counted in the tally). */
  return async function run(user: SoakUser): Promise<void> {
    try {
      await signUp(user)
      // Odd users keep their last session (below), so some changed accounts end with a live session.
      const changes = user.index % config.changeEvery === 1 % config.changeEvery
      for (let cycle = 0; cycle < config.cycles; cycle += 1) {
        const session = await signIn(user)
        for (let n = 0; n < config.refreshes; n += 1) {
          if (changes && cycle === 0 && n === Math.floor(config.refreshes / 2))
            await changePassword(user, session)
          await refresh(user, session)
        }
        await me(user, session)
        // Every other user keeps the last cycle's session: the end checks it still works.
        if (cycle < config.cycles - 1 || user.index % 2 === 0) await logOut(user, session)
      }
    } catch (error) {
      if (!(error instanceof JourneyEnded))
        tally.failures.push(`${user.email}: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}
