/**
 * A sign-in answer (a verified code or a password) as the model takes it: checked for a fresh pair and cookie, then
 * a new session (refresh family) held by the tab, its cookie by the tab's browser.
 */
import type { Response } from 'supertest'
import { browserOf, type Model } from '#contracts/model/model.ts'
import type { Moment } from '#contracts/model/time.ts'
import { requireThat, sessionCookieIn } from '#contracts/model/world.ts'

/** A sign-in answer: a new session (family) in the model, the tab's new pair, the browser's new cookie. */
export function adoptSignIn(
  m: Model,
  tab: number,
  email: string,
  res: Response,
  at: Moment,
  name: string,
): void {
  const body = res.body as { token: string; refresh_token: string; user: { email?: string } }
  requireThat(name, body.user.email === email, `signed in ${body.user.email}, not ${email}`)
  const cookie = sessionCookieIn(res)
  requireThat(name, cookie !== null, 'the sign-in set no session cookie')
  const known = m.sessions.some((s) => s.refreshTokens.includes(body.refresh_token) || s.cookie === cookie)
  requireThat(name, !known, 'the sign-in handed out a refresh token or cookie of an earlier session')
  const pair = { token: body.token, refresh_token: body.refresh_token }
  m.sessions.push({
    email,
    refreshTokens: [pair.refresh_token],
    livePair: pair,
    rotatedAt: null,
    accessTokens: new Map([[pair.token, at]]),
    revoked: false,
    cookie: cookie!,
  })
  const held = m.tabs[tab]!
  if (held.refreshToken) held.retired.push(held.refreshToken)
  m.tabs[tab] = { token: pair.token, refreshToken: pair.refresh_token, retired: held.retired }
  m.cookies[browserOf(tab)] = cookie
}
