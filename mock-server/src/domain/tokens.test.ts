// Which tokens name an account for scenarios and the journal: only those this server signed, expired or not.
import { SignJWT } from 'jose'
import { expect, test } from 'vitest'
import { createMockCore } from '../core.ts'
import { createSession } from './sessions.ts'
import { getSignedAccessTokenSubject, signAccessToken, verifyAccessToken } from './tokens.ts'

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
  })
})
