// The cluster soak's end: with every soak instance killed, a fresh instance on the same database is asked whether
// what was acknowledged is there. Each account signs in with its newest acknowledged password (an unverified one is
// still known: 403); each session acknowledged and not logged out answers /api/me and refreshes; each session logged
// out or ended by a password change is refused; no address has two accounts.
import type { Caller } from './http.ts'
import type { SessionEntry, SoakUser } from './ledger.ts'

export interface Verdict {
  lostAccounts: string[]
  lostPasswordChanges: string[]
  /** Sessions (with their newest rotation) acknowledged and not ended, refused at the end. */
  lostSessions: string[]
  /** Sessions logged out or ended by a password change that still refresh. */
  notSignedOut: string[]
  duplicates: string[]
  checked: { accounts: number; liveSessions: number; endedSessions: number }
}

export const newVerdict = (): Verdict => ({
  lostAccounts: [],
  lostPasswordChanges: [],
  lostSessions: [],
  notSignedOut: [],
  duplicates: [],
  checked: { accounts: 0, liveSessions: 0, endedSessions: 0 },
})

export function createVerifier(call: Caller, verdict: Verdict) {
  async function account(user: SoakUser): Promise<void> {
    // A withdrawn password signs in no one: its sessions (below) show the account is there.
    if (user.account === 'none' || user.account === 'withdrawn') return
    verdict.checked.accounts += 1
    const answer = await call(user.address, 'POST', '/api/auth/login', {
      body: { email: user.email, password: user.password },
    })
    // A sign-up acknowledged but not yet proven is known as unverified (403), or signs in if a lost try proved it.
    const expected = user.account === 'verified' ? [200] : [200, 403]
    if (expected.includes(answer.status)) return
    const why = `${user.email}: sign-in ${answer.status} ${String(answer.body.error ?? '')}, ${expected.join(' or ')} expected`
    ;(user.changedPassword ? verdict.lostPasswordChanges : verdict.lostAccounts).push(why)
  }

  async function liveSession(user: SoakUser, session: SessionEntry, n: number): Promise<void> {
    verdict.checked.liveSessions += 1
    const what = `${user.email} session ${n}`
    const me = await call(user.address, 'GET', '/api/me', {
      headers: { authorization: `Bearer ${session.token}` },
    })
    // An access token past its lifetime says nothing of the session; the refresh below does.
    if (me.status !== 200 && me.body.error !== 'token_expired') {
      verdict.lostSessions.push(`${what}: /api/me ${me.status} ${String(me.body.error ?? '')}`)
      return
    }
    const refreshed = await call(user.address, 'POST', '/api/refresh_token', {
      body: { refresh_token: session.refreshToken },
    })
    if (refreshed.status !== 200) {
      verdict.lostSessions.push(`${what}: refresh ${refreshed.status} ${String(refreshed.body.error ?? '')}`)
      return
    }
    const again = await call(user.address, 'GET', '/api/me', {
      headers: { authorization: `Bearer ${String(refreshed.body.token)}` },
    })
    if (again.status !== 200) verdict.lostSessions.push(`${what}: /api/me after refresh ${again.status}`)
  }

  async function endedSession(user: SoakUser, session: SessionEntry, n: number): Promise<void> {
    verdict.checked.endedSessions += 1
    const refreshed = await call(user.address, 'POST', '/api/refresh_token', {
      body: { refresh_token: session.refreshToken },
    })
    if (refreshed.status !== 401)
      verdict.notSignedOut.push(
        `${user.email} session ${n} (${session.expected}): refresh ${refreshed.status}`,
      )
  }

  return async function verify(user: SoakUser): Promise<void> {
    await account(user)
    for (const [n, session] of user.sessions.entries()) {
      if (session.expected === 'live') await liveSession(user, session, n)
      else if (session.expected !== 'refused_during_run') await endedSession(user, session, n)
    }
  }
}

/** Addresses among `emails` held by more than one account, from /__mock/state of the fresh instance. */
export function findDuplicates(
  state: { store?: { users?: { email: string }[] } },
  emails: Set<string>,
): string[] {
  const seen = new Map<string, number>()
  for (const { email } of state.store?.users ?? [])
    if (emails.has(email)) seen.set(email, (seen.get(email) ?? 0) + 1)
  return [...seen].filter(([, count]) => count > 1).map(([email, count]) => `${email} x ${count}`)
}
