/**
 * The model's rules of sessions and refresh families (ADR 004, api/openapi.yaml's refreshToken, deleteSession and
 * getMe, docs/behaviour.md: Security promises): rotation, the grace window of the live token's parent, reuse that
 * revokes the family, log-out, and which access tokens a protected call accepts. Pure: moments are handed in.
 */
import { FIGURES, findByRefresh, type Model, type SessionModel } from '#contracts/model/model.ts'
import { compareElapsed, type Moment } from '#contracts/model/time.ts'

export type RefreshOutcome =
  | { kind: 'rotated'; session: SessionModel }
  /** The parent of the live token within the grace window: the live pair again. */
  | { kind: 'grace'; session: SessionModel }
  | { kind: 'reused'; session: SessionModel }
  | { kind: 'invalid' }
  /** Too close to call (the grace window's edge, or a session whose end the model could not tell). */
  | { kind: 'grace-or-reused'; session: SessionModel }
  | { kind: 'any'; session: SessionModel }

/** What presenting `refreshToken` at `at` must give. Changes nothing: the command applies the answer. */
export function refreshOutcome(model: Model, refreshToken: string, at: Moment): RefreshOutcome {
  const found = findByRefresh(model, refreshToken)
  if (!found) return { kind: 'invalid' }
  const { session, index } = found
  if (session.revoked === true) return { kind: 'invalid' }
  if (session.revoked === 'unknown') return { kind: 'any', session }
  const live = session.refreshTokens.length - 1
  if (index === live) return { kind: 'rotated', session }
  if (index === live - 1 && session.rotatedAt) {
    const since = compareElapsed(session.rotatedAt, at, FIGURES.graceMs)
    if (since === 'within') return { kind: 'grace', session }
    if (since === 'unknown') return { kind: 'grace-or-reused', session }
  }
  return { kind: 'reused', session }
}

/** The model after a rotation answered `pair` at `at`. */
export function rotated(
  session: SessionModel,
  pair: { token: string; refresh_token: string },
  at: Moment,
): void {
  session.refreshTokens.push(pair.refresh_token)
  session.livePair = pair
  session.rotatedAt = at
  session.accessTokens.set(pair.token, at)
}

export type MeOutcome = 'user' | 'expired' | 'revoked' | 'expired-or-revoked' | 'any'

/**
 * `GET /api/me` with `token`: its own lifetime first (the signature and expiry are checked before the session, ADR
 * 004), then its session. An expired token of an ended session may be told either way.
 */
export function meOutcome(model: Model, token: string, at: Moment): MeOutcome {
  const session = model.sessions.find((s) => s.accessTokens.has(token))
  if (!session) throw new Error(`Failed to model GET /api/me: the token is no session's.`)
  const age = compareElapsed(session.accessTokens.get(token)!, at, FIGURES.accessTtlMs)
  if (age === 'unknown' || session.revoked === 'unknown') return 'any'
  if (age === 'past') return session.revoked ? 'expired-or-revoked' : 'expired'
  return session.revoked ? 'revoked' : 'user'
}

/**
 * The model after a log-out sent `cookie` and `token` at `at`: the cookie's session ends, and the bearer's when the
 * token is surely within its lifetime; an expired bearer may or may not name its session, so that one is unknown.
 */
export function loggedOut(model: Model, cookie: string | null, token: string | null, at: Moment): void {
  const byCookie = cookie ? model.sessions.find((s) => s.cookie === cookie) : undefined
  if (byCookie) byCookie.revoked = true
  const byToken = token ? model.sessions.find((s) => s.accessTokens.has(token)) : undefined
  if (!byToken || byToken.revoked === true) return
  const age = compareElapsed(byToken.accessTokens.get(token!)!, at, FIGURES.accessTtlMs)
  byToken.revoked = age === 'within' ? true : 'unknown'
}
