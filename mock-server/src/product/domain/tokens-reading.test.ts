// Reading a token without a request's awaits (the subject a call is journalled under) and the refresh rotation's
// second reads: what a token the server never wrote names, and what a refresh answers when another request revokes
// or purges its family between the rotation's reads.
import { createHmac } from 'node:crypto'
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import type { DomainContext } from './context.ts'
import { createSession } from './sessions.ts'
import {
  getSignedAccessTokenSubject,
  issueRefreshToken,
  rotateRefreshToken,
  signAccessToken,
  verifyAccessToken,
} from './tokens.ts'

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A compact JWS over the segments as given, signed with the server's own secret: only the spelling is forged. */
function signWithSecret(ctx: DomainContext, header: string, payload: string): string {
  const signature = createHmac('sha256', ctx.config.secret).update(`${header}.${payload}`).digest('base64url')
  return `${header}.${payload}.${signature}`
}

async function createDomain() {
  // Real time stands still here, so the clock moves only when a test moves it.
  const core = createMockCore({ seed: false, realNow: () => 1_700_000_000_000 })
  await core.ready
  return core
}

test('a token signed with the secret names its subject only when written as the server writes its access tokens', async () => {
  const core = await createDomain()
  const ctx = core.ops.domain
  const now = Math.floor(ctx.clock.now() / 1000)
  const head = { alg: 'HS256', typ: 'at+jwt' }
  const claims = {
    sid: 'session-1',
    sub: 'user-1',
    iss: 'auth-shell-mock',
    aud: 'auth-shell-api',
    jti: 'jti-1',
    iat: now,
    exp: now + 900,
  }
  // The forger's signature is the server's: the very token the server signs for these claims names its subject.
  expect(getSignedAccessTokenSubject(ctx, signWithSecret(ctx, encode(head), encode(claims)))).toBe('user-1')
  const payload = encode(claims)
  const wrong = {
    'another algorithm in the header': signWithSecret(ctx, encode({ ...head, alg: 'HS384' }), payload),
    'another type (a plain JWT)': signWithSecret(ctx, encode({ ...head, typ: 'JWT' }), payload),
    'another issuer': signWithSecret(ctx, encode(head), encode({ ...claims, iss: 'someone-else' })),
    'another audience': signWithSecret(ctx, encode(head), encode({ ...claims, aud: 'another-api' })),
    'a subject that is not a string': signWithSecret(ctx, encode(head), encode({ ...claims, sub: 42 })),
    'no subject': signWithSecret(ctx, encode(head), encode({ ...claims, sub: undefined })),
    'a payload that is not JSON': signWithSecret(
      ctx,
      encode(head),
      Buffer.from('not json').toString('base64url'),
    ),
    // Base64url decoders forgive padding: the same claims, signed as spelled, but not one spelling of one token.
    'a padded payload': signWithSecret(
      ctx,
      encode(head),
      `${payload}${'='.repeat(4 - (payload.length % 4))}`,
    ),
  }
  for (const [what, token] of Object.entries(wrong))
    expect(getSignedAccessTokenSubject(ctx, token), what).toBeNull()
})

test('a token with a subject that is not a string names nobody, before and after a bearer check verified it', async () => {
  const core = await createDomain()
  const ctx = core.ops.domain
  const now = Math.floor(ctx.clock.now() / 1000)
  const claims = {
    sid: 's',
    sub: 42,
    iss: 'auth-shell-mock',
    aud: 'auth-shell-api',
    jti: 'j',
    iat: now,
    exp: now + 60,
  }
  const token = signWithSecret(ctx, encode({ alg: 'HS256', typ: 'at+jwt' }), encode(claims))
  expect(getSignedAccessTokenSubject(ctx, token), 'never verified').toBeNull()
  // jose requires a `sub` but not that it be a string: the check passes the signature and keeps the claims.
  expect(await verifyAccessToken(ctx, token)).toEqual({ ok: false, code: 'token_invalid' })
  expect(getSignedAccessTokenSubject(ctx, token), 'verified before').toBeNull()
  const real = await signAccessToken(ctx, 'user-1', 's')
  await verifyAccessToken(ctx, real)
  expect(getSignedAccessTokenSubject(ctx, real), 'a string subject verified before').toBe('user-1')
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
  const now = Math.floor(ctx.clock.now() / 1000)
  const head = { alg: 'HS256', typ: 'at+jwt' }
  const claims = { sid: session.id, sub: 'user-1', iss: 'auth-shell-mock', aud: 'auth-shell-api', jti: 'j' }
  const times = { iat: now, exp: now + 60 }
  // jose takes each of these: the server does not write them, so neither reader may take them.
  const unwritten = {
    'a list of audiences holding ours': signWithSecret(
      ctx,
      encode(head),
      encode({ ...claims, ...times, aud: ['auth-shell-api'] }),
    ),
    'the long form of the type': signWithSecret(
      ctx,
      encode({ ...head, typ: 'application/at+jwt' }),
      encode({ ...claims, ...times }),
    ),
    'a session id that is not text': signWithSecret(
      ctx,
      encode(head),
      encode({ ...claims, ...times, sid: 7 }),
    ),
  }
  for (const [label, token] of Object.entries(unwritten)) {
    expect(await verifyAccessToken(ctx, token), label).toEqual({ ok: false, code: 'token_invalid' })
    expect(getSignedAccessTokenSubject(ctx, token), label).toBeNull()
  }
  // The token as the server writes it, for contrast: valid, and named.
  const written = signWithSecret(ctx, encode(head), encode({ ...claims, ...times }))
  expect(await verifyAccessToken(ctx, written)).toMatchObject({
    ok: true,
    userId: 'user-1',
    sessionId: session.id,
  })
  expect(getSignedAccessTokenSubject(ctx, written)).toBe('user-1')
})
