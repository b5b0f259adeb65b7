// Reading a token without a request's awaits (the subject a call is journalled under) and the refresh rotation's
// second reads: what a token the server never wrote names, and what a refresh answers when another request revokes
// or purges its family between the rotation's reads.
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import {
  encodeSegment,
  forgeToken,
  SERVER_HEADER,
  signSegments,
  writtenClaims,
} from '../../../testing/forged-tokens.ts'
import type { DomainContext } from './context.ts'
import { createSession } from './sessions.ts'
import {
  getSignedAccessTokenSubject,
  issueRefreshToken,
  rotateRefreshToken,
  verifyAccessToken,
} from './tokens.ts'

async function createDomain() {
  // Real time stands still here, so the clock moves only when a test moves it.
  const core = createMockCore({ seed: false, realNow: () => 1_700_000_000_000 })
  await core.ready
  return core
}

test('a token signed with the secret names its subject only when written as the server writes its access tokens', async () => {
  const core = await createDomain()
  const ctx = core.ops.domain
  const head = SERVER_HEADER
  const claims = writtenClaims('session-1', ctx.clock.now(), 900)
  const { secret } = ctx.config
  // The forger's signature is the server's: the very token the server signs for these claims names its subject.
  expect(getSignedAccessTokenSubject(ctx, forgeToken(secret, claims))).toBe('user-1')
  const payload = encodeSegment(claims)
  const wrong = {
    'another algorithm in the header': forgeToken(secret, claims, { ...head, alg: 'HS384' }),
    'another type (a plain JWT)': forgeToken(secret, claims, { ...head, typ: 'JWT' }),
    'another issuer': forgeToken(secret, { ...claims, iss: 'someone-else' }),
    'another audience': forgeToken(secret, { ...claims, aud: 'another-api' }),
    'a subject that is not a string': forgeToken(secret, { ...claims, sub: 42 }),
    'no subject': forgeToken(secret, { ...claims, sub: undefined }),
    'a payload that is not JSON': signSegments(
      secret,
      encodeSegment(head),
      Buffer.from('not json').toString('base64url'),
    ),
    // Base64url decoders forgive padding: the same claims, signed as spelled, but not one spelling of one token.
    'a padded payload': signSegments(
      secret,
      encodeSegment(head),
      `${payload}${'='.repeat(4 - (payload.length % 4))}`,
    ),
  }
  for (const [what, token] of Object.entries(wrong))
    expect(getSignedAccessTokenSubject(ctx, token), what).toBeNull()
})

/** `ctx` whose store runs `meanwhile` once, just before the rotation's first call of `read`: another request. */
function racedAt(
  ctx: DomainContext,
  read: 'sessions.byId' | 'refreshTokens.byId',
  meanwhile: () => Promise<unknown>,
): DomainContext {
  const [collection, method] = read.split('.') as ['sessions' | 'refreshTokens', 'byId']
  const original = ctx.store[collection][method]
  let pending = true
  const raced = async (id: string) => {
    if (pending) {
      pending = false
      await meanwhile()
    }
    return original(id)
  }
  return { ...ctx, store: { ...ctx.store, [collection]: { ...ctx.store[collection], [method]: raced } } }
}

/** A session whose refresh token has rotated once: `parent` is within its grace window, `first` its answer. */
async function rotatedOnce(ctx: DomainContext) {
  const { session } = await createSession(ctx, 'user-1')
  const parent = await issueRefreshToken(ctx, session.id)
  const first = await rotateRefreshToken(ctx, parent)
  if (!first.ok) throw new Error(`the first rotation failed: ${first.code}`)
  return { session, parent, first }
}

test('a session revoked while a grace replay reads it again ends the grace: refresh_invalid, its reason kept', async () => {
  const core = await createDomain()
  const ctx = core.ops.domain
  const { session, parent } = await rotatedOnce(ctx)
  const raced = racedAt(ctx, 'sessions.byId', () =>
    ctx.store.sessions.revoke(session.id, ctx.clock.now(), 'logout'),
  )
  expect(await rotateRefreshToken(raced, parent)).toEqual({ ok: false, code: 'refresh_invalid' })
  // A logout is not a reuse: the session keeps the reason it ended with.
  expect((await ctx.store.sessions.byId(session.id))?.revokedReason).toBe('logout')
})

test('a session revoked and purged while a grace replay reads it again yields a refusal, not a crash', async () => {
  const core = await createDomain()
  const ctx = core.ops.domain
  const { session, parent } = await rotatedOnce(ctx)
  const raced = racedAt(ctx, 'sessions.byId', async () => {
    await ctx.store.sessions.revoke(session.id, ctx.clock.now(), 'logout')
    await ctx.store.sessions.purgeEnded(ctx.clock.now())
  })
  expect(await rotateRefreshToken(raced, parent)).toMatchObject({ ok: false })
  expect(await ctx.store.sessions.byId(session.id), 'purged').toBeNull()
})

test('a retired token whose family is purged before the replay reads it again is refresh_invalid', async () => {
  const core = await createDomain()
  const ctx = core.ops.domain
  const { session, parent } = await rotatedOnce(ctx)
  const raced = racedAt(ctx, 'refreshTokens.byId', async () => {
    await ctx.store.sessions.revoke(session.id, ctx.clock.now(), 'logout')
    await ctx.store.sessions.purgeEnded(ctx.clock.now())
  })
  expect(await rotateRefreshToken(raced, parent)).toEqual({ ok: false, code: 'refresh_invalid' })
})

test('a retired token used past its grace window ends its session with the reason refresh_reused', async () => {
  const core = await createDomain()
  const ctx = core.ops.domain
  const { session, parent } = await rotatedOnce(ctx)
  core.clock.advance(ctx.config.refreshGraceMs + 1)
  expect(await rotateRefreshToken(ctx, parent)).toEqual({ ok: false, code: 'refresh_reused' })
  const ended = await ctx.store.sessions.byId(session.id)
  expect(ended).toMatchObject({ revokedAt: ctx.clock.now(), revokedReason: 'refresh_reused' })
})

test('a token the secret signs but the server would not write is invalid to a bearer check and names nobody, before or after the check', async () => {
  const core = await createDomain()
  const ctx = core.ops.domain
  const { session } = await createSession(ctx, 'user-1')
  const claims = writtenClaims(session.id, ctx.clock.now())
  // jose takes each of these (it wants a `sub`, not that it be text): the server does not write them, so neither
  // reader may take them.
  const unwritten = {
    'a list of audiences holding ours': forgeToken(ctx.config.secret, { ...claims, aud: ['auth-shell-api'] }),
    'the long form of the type': forgeToken(ctx.config.secret, claims, {
      ...SERVER_HEADER,
      typ: 'application/at+jwt',
    }),
    'a subject that is not text': forgeToken(ctx.config.secret, { ...claims, sub: 42 }),
    'a session id that is not text': forgeToken(ctx.config.secret, { ...claims, sid: 7 }),
  }
  for (const [label, token] of Object.entries(unwritten)) {
    expect(getSignedAccessTokenSubject(ctx, token), `${label}, never checked`).toBeNull()
    expect(await verifyAccessToken(ctx, token), label).toEqual({ ok: false, code: 'token_invalid' })
    expect(getSignedAccessTokenSubject(ctx, token), `${label}, checked before`).toBeNull()
  }
  // The token as the server writes it, for contrast: valid, and named before and after the check.
  const written = forgeToken(ctx.config.secret, claims)
  expect(getSignedAccessTokenSubject(ctx, written)).toBe('user-1')
  expect(await verifyAccessToken(ctx, written)).toMatchObject({
    ok: true,
    userId: 'user-1',
    sessionId: session.id,
  })
  expect(getSignedAccessTokenSubject(ctx, written)).toBe('user-1')
})
