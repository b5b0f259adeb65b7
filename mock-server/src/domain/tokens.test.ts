// Which tokens name an account for scenarios and the journal: only those this server signed, expired or not.
import { SignJWT } from 'jose'
import { expect, test } from 'vitest'
import { createMockCore } from '../core.ts'
import { getSignedAccessTokenSubject, signAccessToken } from './tokens.ts'

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
