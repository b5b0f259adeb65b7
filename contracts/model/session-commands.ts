/**
 * The commands of a model-based run over sessions: refresh a tab's pair, present a refresh token the tab held
 * before, call a protected operation, log out. Each checks the answer against the model, then applies it.
 */
import type { AsyncCommand } from 'fast-check'
import { browserOf, pickIndex, type Model } from '#contracts/model/model.ts'
import { loggedOut, meOutcome, refreshOutcome, rotated } from '#contracts/model/session-rules.ts'
import {
  clearsSessionCookie,
  requireAnswer,
  requireThat,
  send,
  type Answer,
  type World,
} from '#contracts/model/world.ts'

type Command = AsyncCommand<Model, World>

/**
 * Presents a refresh token of the `pick`-th tab holding one: its live one, or (`retired` ≥ 0) one it held before.
 */
export class Refresh implements Command {
  constructor(
    readonly pick: number,
    readonly retired = -1,
  ) {}
  private tabIn = (m: Readonly<Model>) =>
    pickIndex(m.tabs, this.pick, (t) => (this.retired < 0 ? t.refreshToken !== null : t.retired.length > 0))
  check = (m: Readonly<Model>) => this.tabIn(m) !== null
  async run(m: Model, w: World) {
    const tab = this.tabIn(m)!
    const held = m.tabs[tab]!
    const index = this.retired % Math.max(1, held.retired.length)
    const presented = this.retired < 0 ? held.refreshToken! : held.retired[index]!
    const name =
      this.retired < 0 ? `refresh(tab ${tab})` : `reuseRetired(tab ${tab}, the ${ordinal(index)} it held)`
    w.steps.push(name)
    const { res, at } = await send(m, w.api.post('/api/refresh_token').send({ refresh_token: presented }))
    const outcome = refreshOutcome(m, presented, at)
    const ok = { status: 200 }
    const reused = { status: 401, error: 'refresh_reused' }
    const invalid = { status: 401, error: 'refresh_invalid' }
    const allowed: Record<RefreshKind, Answer[]> = {
      rotated: [ok],
      grace: [ok],
      reused: [reused],
      invalid: [invalid],
      'grace-or-reused': [ok, reused],
      any: [ok, reused, invalid],
    }
    if (outcome.kind === 'grace-or-reused' || outcome.kind === 'any') w.loose += 1
    const answer = requireAnswer(name, res, allowed[outcome.kind])
    if (outcome.kind === 'invalid') return
    const { session } = outcome
    if (answer !== ok) {
      session.revoked = true
      return
    }
    session.revoked = false
    const pair = res.body as { success: boolean; token: string; refresh_token: string }
    requireThat(
      name,
      pair.success === true && !!pair.token && !!pair.refresh_token,
      'a 200 without both tokens',
    )
    const again =
      pair.token === session.livePair.token && pair.refresh_token === session.livePair.refresh_token
    const fresh = !m.sessions.some(
      (s) => s.refreshTokens.includes(pair.refresh_token) || s.accessTokens.has(pair.token),
    )
    if (outcome.kind === 'rotated')
      requireThat(name, fresh, 'the refresh did not rotate: it answered a pair already issued')
    else if (outcome.kind === 'grace')
      requireThat(name, again, 'inside the grace window the parent must get the live pair again')
    else requireThat(name, fresh || again, 'a 200 with neither a new pair nor the live one')
    if (fresh) rotated(session, pair, at)
    if (held.refreshToken && held.refreshToken !== pair.refresh_token) held.retired.push(held.refreshToken)
    held.token = pair.token
    held.refreshToken = pair.refresh_token
  }
  toString = () =>
    this.retired < 0 ? `refresh(#${this.pick})` : `reuseRetired(#${this.pick}, #${this.retired})`
}

const ordinal = (index: number): string => ['first', 'second', 'third', 'fourth'][index] ?? `#${index + 1}`

type RefreshKind = ReturnType<typeof refreshOutcome>['kind']

/** `GET /api/me` from the `pick`-th tab holding an access token. */
export class GetMe implements Command {
  constructor(readonly pick: number) {}
  private tabIn = (m: Readonly<Model>) => pickIndex(m.tabs, this.pick, (t) => t.token !== null)
  check = (m: Readonly<Model>) => this.tabIn(m) !== null
  async run(m: Model, w: World) {
    const tab = this.tabIn(m)!
    const name = `getMe(tab ${tab})`
    w.steps.push(name)
    const token = m.tabs[tab]!.token!
    const { res, at } = await send(m, w.api.get('/api/me').set('Authorization', `Bearer ${token}`))
    const outcome = meOutcome(m, token, at)
    const user = { status: 200 }
    const expired = { status: 401, error: 'token_expired' }
    const revoked = { status: 401, error: 'session_revoked' }
    const allowed = {
      user: [user],
      expired: [expired],
      revoked: [revoked],
      'expired-or-revoked': [expired, revoked],
      any: [user, expired, revoked],
    }[outcome]
    if (outcome === 'any') w.loose += 1
    const answer = requireAnswer(name, res, allowed)
    const session = m.sessions.find((s) => s.accessTokens.has(token))!
    if (answer === user) {
      session.revoked = false
      requireThat(name, (res.body as { email?: string }).email === session.email, 'another user')
    } else if (answer === revoked) session.revoked = true
  }
  toString = () => `getMe(#${this.pick})`
}

/** Log-out from the `pick`-th tab holding a token or in a browser holding a cookie: its cookie and its bearer. */
export class LogOut implements Command {
  constructor(readonly pick: number) {}
  private tabIn = (m: Readonly<Model>) =>
    pickIndex(m.tabs, this.pick, (t, i) => t.token !== null || m.cookies[browserOf(i)] !== null)
  check = (m: Readonly<Model>) => this.tabIn(m) !== null
  async run(m: Model, w: World) {
    const tab = this.tabIn(m)!
    const name = `logOut(tab ${tab})`
    w.steps.push(name)
    const { token } = m.tabs[tab]!
    const cookie = m.cookies[browserOf(tab)] ?? null
    const test = w.api.delete('/api/_auth/session').set('Sec-Fetch-Site', 'same-origin')
    if (cookie) test.set('Cookie', cookie)
    if (token) test.set('Authorization', `Bearer ${token}`)
    const { res, at } = await send(m, test)
    requireAnswer(name, res, [{ status: 200 }])
    requireThat(name, clearsSessionCookie(res), 'the answer does not clear the session cookie')
    loggedOut(m, cookie, token, at)
    m.cookies[browserOf(tab)] = null
  }
  toString = () => `logOut(#${this.pick})`
}
