/**
 * The commands of a model-based run around the sessions: read the cookie session, copy a tab (a duplicated tab), and
 * move the server's clock. Each checks the answer against the model, then applies it.
 */
import type { AsyncCommand } from 'fast-check'
import { findByCookie, pickIndex, TABS, type Model } from '#contracts/model/model.ts'
import { requireAnswer, requireThat, send, type World } from '#contracts/model/world.ts'

type Command = AsyncCommand<Model, World>

/** `GET /api/_auth/session` with the cookie of the `pick`-th browser holding one. */
export class ReadSession implements Command {
  constructor(readonly pick: number) {}
  private browserIn = (m: Readonly<Model>) => pickIndex(m.cookies, this.pick, (c) => c !== null)
  check = (m: Readonly<Model>) => this.browserIn(m) !== null
  async run(m: Model, w: World) {
    const browser = this.browserIn(m)!
    const name = `readSession(browser ${browser})`
    w.steps.push(name)
    const cookie = m.cookies[browser]!
    const { res } = await send(m, w.api.get('/api/_auth/session').set('Cookie', cookie))
    requireAnswer(name, res, [{ status: 200 }])
    const session = findByCookie(m, cookie)!
    const signedIn = (res.body as { user?: { email?: string } }).user?.email
    if (session.revoked === 'unknown') {
      w.loose += 1
      session.revoked = signedIn === undefined
    }
    const expected = session.revoked ? undefined : session.email
    requireThat(
      name,
      signedIn === expected,
      `the cookie session holds ${signedIn ?? 'no one'}, the model expected ${expected ?? 'no one'}`,
    )
  }
  toString = () => `readSession(#${this.pick})`
}

/** A duplicated tab: its session storage copied from another (docs/session-life-cycle.md, Known limits). */
export class Duplicate implements Command {
  constructor(
    readonly pick: number,
    readonly to: number,
  ) {}
  private fromIn = (m: Readonly<Model>) => pickIndex(m.tabs, this.pick, (t) => t.refreshToken !== null)
  check = (m: Readonly<Model>) => this.fromIn(m) !== null
  run(m: Model, w: World) {
    const from = this.fromIn(m)!
    const to = from === this.to ? (this.to + 1) % TABS : this.to
    w.steps.push(`duplicateTab(${from} → ${to})`)
    const source = m.tabs[from]!
    m.tabs[to] = { token: source.token, refreshToken: source.refreshToken, retired: [...source.retired] }
    return Promise.resolve()
  }
  toString = () => `duplicateTab(#${this.pick} → ${this.to})`
}

export class AdvanceClock implements Command {
  constructor(readonly ms: number) {}
  check = (m: Readonly<Model>) => m.control
  async run(m: Model, w: World) {
    w.steps.push(this.toString())
    await w.mock!.advanceClock(this.ms)
    m.offsetMs += this.ms
  }
  toString = () => `advanceClock(${this.ms / 1000} s)`
}
