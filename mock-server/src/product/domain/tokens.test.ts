// Which tokens name an account for scenarios and the journal: only those this server signed, expired or not.
import { SignJWT } from 'jose'
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import { forgeToken, writtenClaims } from '../../../testing/forged-tokens.ts'
import type { DomainContext } from './context.ts'
import { createSession, getSessionByCookie, getSessionWithUserByCookie, revokeSession } from './sessions.ts'
import {
  getSignedAccessTokenSubject,
  issueRefreshToken,
  rotateRefreshToken,
  signAccessToken,
  verifyAccessToken,
} from './tokens.ts'

test('a signed token names its subject, expired or not; an unsigned, re-keyed or foreign one names nobody', async () => {
  const core = createMockCore({ seed: false, accessTokenTtlMs: 1_000 })
  await core.ready
  const ctx = core.ops.domain
  const token = await signAccessToken(ctx, 'user-1', 'session-1')
  expect(getSignedAccessTokenSubject(ctx, token)).toBe('user-1')
  core.clock.advance(60_000)
  expect(getSignedAccessTokenSubject(ctx, token)).toBe('user-1')
  const [header, payload] = token.split('.')
  const unsigned = `${Buffer.from('{"alg":"none","typ":"at+jwt"}').toString('base64url')}.${payload}.`
  const rekeyed = await new SignJWT(JSON.parse(Buffer.from(payload!, 'base64url').toString()))
    .setProtectedHeader(JSON.parse(Buffer.from(header!, 'base64url').toString()))
    .sign(new TextEncoder().encode('a guessed secret'))
  const other = createMockCore({ seed: false })
  await other.ready
  const foreign = await signAccessToken(other.ops.domain, 'user-2', 'session-2')
  for (const wrong of [unsigned, rekeyed, foreign, `${token}.x`, 'not.a.token', ''])
    expect(getSignedAccessTokenSubject(ctx, wrong)).toBeNull()
})

test('an access token is the very token jose signs for the same claims, and jose verifies it', async () => {
  const core = createMockCore({ seed: false })
  await core.ready
  const ctx = core.ops.domain
  core.clock.advance(123_456_789)
  const token = await signAccessToken(ctx, 'user-1', 'session-1')
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string }
  // How the server signed before it signed with node:crypto: jose's SignJWT, called in this order.
  const joseToken = await new SignJWT({ sid: 'session-1' })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setSubject('user-1')
    .setIssuer('auth-shell-mock')
    .setAudience('auth-shell-api')
    .setJti(claims.jti)
    .setIssuedAt(Math.floor(ctx.clock.now() / 1000))
    .setExpirationTime(Math.floor(ctx.clock.now() / 1000) + 15 * 60)
    .sign(new TextEncoder().encode(ctx.config.secret))
  expect(token).toBe(joseToken)
  expect(await verifyAccessToken(ctx, token)).toEqual({ ok: false, code: 'token_invalid' })
  const session = await createSession(ctx, 'user-1')
  const live = await signAccessToken(ctx, 'user-1', session.session.id)
  expect(await verifyAccessToken(ctx, live)).toEqual({
    ok: true,
    userId: 'user-1',
    sessionId: session.session.id,
    // No account was made for this session: the check reads none with it.
    user: null,
  })
})

test('a token verified before is still checked at every use: expiry, a clock set back before it was issued, its session', async () => {
  const core = createMockCore({ seed: false, accessTokenTtlMs: 60_000 })
  await core.ready
  const ctx = core.ops.domain
  const { session } = await createSession(ctx, 'user-1')
  const token = await signAccessToken(ctx, 'user-1', session.id)
  const valid = { ok: true, userId: 'user-1', sessionId: session.id, user: null }
  expect(await verifyAccessToken(ctx, token)).toEqual(valid)
  expect(await verifyAccessToken(ctx, token), 'used again').toEqual(valid)
  // The clock set back before the token was issued: issued "later" than now, so not issued here.
  const issuedAt = ctx.clock.now()
  core.clock.set(issuedAt - 3_600_000)
  expect(await verifyAccessToken(ctx, token)).toEqual({ ok: false, code: 'token_invalid' })
  core.clock.set(issuedAt)
  expect(await verifyAccessToken(ctx, token)).toEqual(valid)
  core.clock.advance(59_000)
  expect(await verifyAccessToken(ctx, token), 'a second before it expires').toEqual(valid)
  core.clock.advance(1_000)
  expect(await verifyAccessToken(ctx, token), 'at its exp').toEqual({ ok: false, code: 'token_expired' })
  core.clock.set(issuedAt)
  await revokeSession(ctx, session.id, 'logout')
  expect(await verifyAccessToken(ctx, token)).toEqual({ ok: false, code: 'session_revoked' })
  // A forged spelling of a token that passed is not taken for it.
  const [header, payload, signature] = token.split('.')
  const flipped = `${header}.${payload}.${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`
  expect(await verifyAccessToken(ctx, flipped)).toEqual({ ok: false, code: 'token_invalid' })
})

/** A core with a 10 s grace window and a one-minute refresh lifetime; real time stands still, so only tests move its clock. */
async function createGraceCore() {
  const core = createMockCore({
    seed: false,
    refreshGraceMs: 10_000,
    refreshTokenTtlMs: 60_000,
    realNow: () => 1_700_000_000_000,
  })
  await core.ready
  return core
}

test('the grace window ends exactly refreshGraceMs after the rotation, and the session at its expiresAt', async () => {
  const core = await createGraceCore()
  const ctx = core.ops.domain
  const { session } = await createSession(ctx, 'user-1')
  const parent = await issueRefreshToken(ctx, session.id)
  const first = await rotateRefreshToken(ctx, parent)
  if (!first.ok) throw new Error(`the first rotation failed: ${first.code}`)
  core.clock.advance(10_000)
  expect(await rotateRefreshToken(ctx, parent), "at the window's last millisecond").toMatchObject({
    ok: true,
    pair: first.pair,
  })
  core.clock.advance(1)
  expect(await rotateRefreshToken(ctx, parent), 'a millisecond past it').toEqual({
    ok: false,
    code: 'refresh_reused',
  })
  expect(await rotateRefreshToken(ctx, first.pair.refresh_token)).toEqual({
    ok: false,
    code: 'refresh_invalid',
  })

  const other = await createSession(ctx, 'user-1')
  const live = await issueRefreshToken(ctx, other.session.id)
  core.clock.set(other.session.expiresAt - 1)
  const last = await rotateRefreshToken(ctx, live)
  expect(last.ok, 'a millisecond before the session ends').toBe(true)
  core.clock.set(other.session.expiresAt)
  expect(await rotateRefreshToken(ctx, last.ok ? last.pair.refresh_token : live)).toEqual({
    ok: false,
    code: 'refresh_expired',
  })
})

test('the grace window runs from the rotation, not the creation: a token rotated long after it was issued gets it', async () => {
  const core = await createGraceCore()
  const ctx = core.ops.domain
  const { session } = await createSession(ctx, 'user-1')
  const parent = await issueRefreshToken(ctx, session.id)
  core.clock.advance(30_000)
  const first = await rotateRefreshToken(ctx, parent)
  if (!first.ok) throw new Error(`the rotation failed: ${first.code}`)
  core.clock.advance(1_000)
  expect(await rotateRefreshToken(ctx, parent), 'a second after the rotation').toMatchObject({
    ok: true,
    pair: first.pair,
  })
})

test('a session ends its cookie and its access tokens at its expiresAt; a shorter lifetime ends longer tokens', async () => {
  const core = createMockCore({
    seed: false,
    accessTokenTtlMs: 60_000,
    refreshTokenTtlMs: 30_000,
    realNow: () => 1_700_000_000_000,
  })
  await core.ready
  const ctx = core.ops.domain
  const { session, cookie } = await createSession(ctx, 'user-1')
  const token = await signAccessToken(ctx, 'user-1', session.id)
  const valid = { ok: true, userId: 'user-1', sessionId: session.id, user: null }
  // The same store and secret with a 30 s access-token lifetime: a restart with --access-ttl 30s.
  const restarted = { ...ctx, config: { ...ctx.config, accessTokenTtlMs: 30_000 } }
  expect(await verifyAccessToken(restarted, token)).toEqual({ ok: false, code: 'token_invalid' })
  core.clock.set(session.expiresAt - 1)
  expect(await verifyAccessToken(ctx, token)).toEqual(valid)
  expect((await getSessionByCookie(ctx, cookie))?.id).toBe(session.id)
  expect((await getSessionWithUserByCookie(ctx, cookie))?.session.id).toBe(session.id)
  core.clock.set(session.expiresAt)
  expect(await verifyAccessToken(ctx, token)).toEqual({ ok: false, code: 'session_revoked' })
  expect(await getSessionByCookie(ctx, cookie)).toBeNull()
  expect(await getSessionWithUserByCookie(ctx, cookie)).toBeNull()
})

test('a revoked session is gone for its cookie before its expiresAt', async () => {
  const core = createMockCore({ seed: false })
  await core.ready
  const ctx = core.ops.domain
  const { session, cookie } = await createSession(ctx, 'user-1')
  expect((await getSessionByCookie(ctx, cookie))?.id).toBe(session.id)
  await revokeSession(ctx, session.id, 'logout')
  expect(await getSessionByCookie(ctx, cookie)).toBeNull()
})

/** A token with the server's own header and secret and exactly `claims`: what only the secret's holder can make. */
const forge = (ctx: DomainContext, claims: object) => forgeToken(ctx.config.secret, claims)

test('a token lacking any claim the server writes (exp, iat, sub, sid, jti, aud) is invalid, though signed', async () => {
  const core = createMockCore({ seed: false })
  await core.ready
  const ctx = core.ops.domain
  const { session } = await createSession(ctx, 'user-1')
  const claims = writtenClaims(session.id, ctx.clock.now())
  expect(await verifyAccessToken(ctx, forge(ctx, claims)), 'all of them').toMatchObject({ ok: true })
  for (const claim of ['exp', 'iat', 'sub', 'sid', 'jti', 'aud'] as const) {
    const { [claim]: _, ...lacking } = claims
    expect(await verifyAccessToken(ctx, forge(ctx, lacking)), `without ${claim}`).toEqual({
      ok: false,
      code: 'token_invalid',
    })
  }
})

test('a token is invalid before its nbf, even at a later use of a token verified before', async () => {
  const core = createMockCore({ seed: false, accessTokenTtlMs: 60_000 })
  await core.ready
  const ctx = core.ops.domain
  const { session } = await createSession(ctx, 'user-1')
  const issuedAt = ctx.clock.now()
  const claims = writtenClaims(session.id, issuedAt)
  const token = forge(ctx, { ...claims, nbf: claims.iat + 10 })
  const valid = { ok: true, userId: 'user-1', sessionId: session.id, user: null }
  expect(await verifyAccessToken(ctx, token), 'before its nbf').toEqual({ ok: false, code: 'token_invalid' })
  core.clock.set(issuedAt + 10_000)
  expect(await verifyAccessToken(ctx, token), 'at its nbf').toEqual(valid)
  expect(await verifyAccessToken(ctx, token), 'at its nbf, used again').toEqual(valid)
  // The clock set back between its iat and its nbf: issued by then, but not valid yet.
  core.clock.set(issuedAt + 5_000)
  expect(await verifyAccessToken(ctx, token), 'used again before its nbf').toEqual({
    ok: false,
    code: 'token_invalid',
  })
})

test("a token naming another account than its session's is invalid", async () => {
  const core = createMockCore({ seed: false })
  await core.ready
  const ctx = core.ops.domain
  const { session } = await createSession(ctx, 'user-1')
  const token = await signAccessToken(ctx, 'user-2', session.id)
  expect(await verifyAccessToken(ctx, token)).toEqual({ ok: false, code: 'token_invalid' })
})

test('a token whose sid is not a string names no session, even on a store that reads an id as text', async () => {
  const core = createMockCore({ seed: false })
  await core.ready
  const domain = core.ops.domain
  // PostgreSQL reads a number or an array parameter as text, so sid 42 would find the session '42' there; PGlite
  // takes seconds to start, so a store that reads ids as text the same way stands in for it.
  const sessions = domain.store.sessions
  const ctx: DomainContext = {
    ...domain,
    store: {
      ...domain.store,
      sessions: { ...sessions, byIdWithUser: (id) => sessions.byIdWithUser(String(id)) },
    },
  }
  const { session } = await createSession(ctx, 'user-1')
  await ctx.store.sessions.create({ ...session, id: '42', cookieHash: 'another-cookie-hash' })
  const claims = writtenClaims('42', ctx.clock.now())
  expect(await verifyAccessToken(ctx, forge(ctx, claims)), 'sid "42"').toEqual({
    ok: true,
    userId: 'user-1',
    sessionId: '42',
    user: null,
  })
  for (const sid of [42, ['42']])
    expect(
      await verifyAccessToken(ctx, forge(ctx, { ...claims, sid })),
      `sid ${JSON.stringify(sid)}`,
    ).toEqual({
      ok: false,
      code: 'token_invalid',
    })
})
