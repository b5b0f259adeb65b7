// Access tokens (HS256 JWTs with exp, iat, sub, sid, jti) and refresh tokens (opaque, stored hashed,
// rotated on every use, with a grace window for the immediate parent and family revocation on reuse).
import type { components } from '#api/openapi.gen.ts'
import { createHmac, createSecretKey, type KeyObject } from 'node:crypto'
import { errors, jwtVerify, type JWTPayload } from 'jose'
import { isCanonicalBase64url } from './base64url.ts'
import type { DomainContext } from './context.ts'
import { createId, createRandomToken, hashToken, openBox, safeEqual, sealBox } from '../../shared/crypto.ts'
import { revokeSession } from './sessions.ts'
import type { RefreshTokenRecord, SessionRecord } from './store.ts'

const ALGORITHM = 'HS256'
const ISSUER = 'auth-shell-mock'
/** RFC 9068's type of a JWT access token: no other JWT this server might sign passes for one. */
const TOKEN_TYPE = 'at+jwt'
/** The API the token is for. */
const AUDIENCE = 'auth-shell-api'

type Schemas = components['schemas']
export type TokenPair = Pick<Schemas['SignedInBody'], 'token' | 'refresh_token'>

export type AccessCheck =
  | { ok: true; userId: string; sessionId: string }
  | { ok: false; code: Extract<Schemas['ErrorCode'], 'token_expired' | 'token_invalid' | 'session_revoked'> }

export type RefreshOutcome =
  | { ok: true; pair: TokenPair; session: SessionRecord }
  | {
      ok: false
      code: Extract<Schemas['ErrorCode'], 'refresh_invalid' | 'refresh_expired' | 'refresh_reused'>
    }

/** Each secret's HMAC key, imported once: importing it at every sign and verify was most of a token's cost. */
const signingKeys = new Map<string, Promise<CryptoKey>>()
/** Servers in one process (a test run starts hundreds) each have a secret of their own; the oldest go first. */
const SIGNING_KEYS_KEPT = 64

function signingKey(ctx: DomainContext): Promise<CryptoKey> {
  const secret = ctx.config.secret
  let key = signingKeys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    )
    if (signingKeys.size >= SIGNING_KEYS_KEPT) signingKeys.delete(signingKeys.keys().next().value!)
    signingKeys.set(secret, key)
  }
  return key
}

/**
 * Each secret as a node:crypto key, made once. Access tokens are signed with node:crypto's HMAC, not with jose's
 * SignJWT: jose signs through WebCrypto, an asynchronous job on the thread pool that cost about 20 times the HMAC
 * itself, most of a refresh's signing (docs/decisions/013-mock-server-speed.md). The token is the same, byte for byte
 * (HMAC is deterministic; tokens.test.ts compares the two), and jose still verifies every token.
 */
const hmacKeys = new Map<string, KeyObject>()

function hmacKey(secret: string): KeyObject {
  let key = hmacKeys.get(secret)
  if (!key) {
    key = createSecretKey(Buffer.from(secret, 'utf8'))
    if (hmacKeys.size >= SIGNING_KEYS_KEPT) hmacKeys.delete(hmacKeys.keys().next().value!)
    hmacKeys.set(secret, key)
  }
  return key
}

const ENCODED_HEADER = Buffer.from(JSON.stringify({ alg: ALGORITHM, typ: TOKEN_TYPE })).toString('base64url')

export async function signAccessToken(
  ctx: DomainContext,
  userId: string,
  sessionId: string,
): Promise<string> {
  const now = Math.floor(ctx.clock.now() / 1000)
  // The claims in the order jose's SignJWT wrote them (sid, then sub, iss, aud, jti, iat, exp as it was called).
  const claims = {
    sid: sessionId,
    sub: userId,
    iss: ISSUER,
    aud: AUDIENCE,
    jti: createId(),
    iat: now,
    exp: now + Math.round(ctx.config.accessTokenTtlMs / 1000),
  }
  const signingInput = `${ENCODED_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
  const signature = createHmac('sha256', hmacKey(ctx.config.secret)).update(signingInput).digest('base64url')
  return `${signingInput}.${signature}`
}

function verifyOptions(ctx: DomainContext) {
  return {
    algorithms: [ALGORITHM],
    issuer: ISSUER,
    audience: AUDIENCE,
    typ: TOKEN_TYPE,
    currentDate: new Date(ctx.clock.now()),
    requiredClaims: ['exp', 'iat', 'sub', 'sid', 'jti', 'aud'],
  }
}

/** Three segments, each written as this server writes base64url: one token, one spelling. */
function isCanonicalJws(token: string): boolean {
  const segments = token.split('.')
  return segments.length === 3 && segments.every(isCanonicalBase64url)
}

/**
 * The claims of access tokens that passed jose's verification, by token, for each server (its own secret and store):
 * what jose checked once (the signature, the header, the issuer, the audience, the required claims) cannot change for
 * the same string under the same secret, so a token used again is not verified again; what depends on the clock
 * (expiry, not-before, issued-at) and on the store (the session) is checked at every use. Only tokens that passed go in
 * (a forged one is never a hit), at most VERIFIED_KEPT a server, the oldest first out. Every call of a signed-in page
 * carries the same token for its whole lifetime: see docs/decisions/013-mock-server-speed.md for what it saves.
 */
const verifiedClaims = new WeakMap<DomainContext, Map<string, JWTPayload>>()
const VERIFIED_KEPT = 1_000

function rememberVerified(ctx: DomainContext, token: string, payload: JWTPayload): void {
  let tokens = verifiedClaims.get(ctx)
  if (!tokens) verifiedClaims.set(ctx, (tokens = new Map()))
  if (tokens.size >= VERIFIED_KEPT) tokens.delete(tokens.keys().next().value as string)
  tokens.set(token, payload)
}

/** jose's own time checks (its `exp` and `nbf` rules, no tolerance), for a token whose signature it verified before. */
function checkTimes(ctx: DomainContext, payload: JWTPayload): AccessCheck | null {
  const now = Math.floor(ctx.clock.now() / 1000)
  if (typeof payload.nbf === 'number' && payload.nbf > now) return { ok: false, code: 'token_invalid' }
  if (typeof payload.exp !== 'number' || payload.exp <= now) return { ok: false, code: 'token_expired' }
  return null
}

export async function verifyAccessToken(ctx: DomainContext, token: string): Promise<AccessCheck> {
  let payload = verifiedClaims.get(ctx)?.get(token)
  if (payload) {
    const refused = checkTimes(ctx, payload)
    if (refused) return refused
  } else {
    // A decoder that drops padding, maps + and / or ignores trailing bits would accept other spellings of a signature.
    if (!isCanonicalJws(token)) return { ok: false, code: 'token_invalid' }
    try {
      ;({ payload } = await jwtVerify(token, await signingKey(ctx), verifyOptions(ctx)))
    } catch (error) {
      return { ok: false, code: error instanceof errors.JWTExpired ? 'token_expired' : 'token_invalid' }
    }
    rememberVerified(ctx, token, payload)
  }
  // This server issued every token it accepts, on this clock: one issued "later" was not issued here.
  if (typeof payload.iat !== 'number' || payload.iat > Math.floor(ctx.clock.now() / 1000))
    return { ok: false, code: 'token_invalid' }
  // Nor does it issue a token that lives longer than its access-token lifetime (a restart with a shorter
  // --access-ttl ends the longer-lived tokens of before).
  if (
    typeof payload.exp !== 'number' ||
    payload.exp - payload.iat > Math.round(ctx.config.accessTokenTtlMs / 1000)
  )
    return { ok: false, code: 'token_invalid' }
  const sessionId = typeof payload.sid === 'string' ? payload.sid : ''
  const session = ctx.store.sessions.findBy('id', sessionId)
  if (!session || session.userId !== payload.sub) return { ok: false, code: 'token_invalid' }
  if (session.revokedAt !== null || session.expiresAt <= ctx.clock.now())
    return { ok: false, code: 'session_revoked' }
  return { ok: true, userId: session.userId, sessionId }
}

/**
 * The subject of an access token this server signed, expired or not (an expired token still names its account
 * for scenarios and the journal); null for anything unsigned, forged or malformed. Synchronous on purpose: calls
 * take armed scenarios in the order they arrive, so nothing may be awaited before that.
 */
export function getSignedAccessTokenSubject(ctx: DomainContext, token: string): string | null {
  const verified = verifiedClaims.get(ctx)?.get(token)
  if (verified) return typeof verified.sub === 'string' ? verified.sub : null
  if (!isCanonicalJws(token)) return null
  const [header, payload, signature, ...rest] = token.split('.')
  if (header === undefined || payload === undefined || signature === undefined || rest.length > 0) return null
  const expected = createHmac('sha256', ctx.config.secret).update(`${header}.${payload}`).digest('base64url')
  if (!safeEqual(signature, expected)) return null
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
    const ours =
      head.alg === ALGORITHM && head.typ === TOKEN_TYPE && claims.iss === ISSUER && claims.aud === AUDIENCE
    return ours && typeof claims.sub === 'string' ? claims.sub : null
  } catch {
    return null
  }
}

/** Issues the first refresh token of a session (family). */
export async function issueRefreshToken(ctx: DomainContext, sessionId: string): Promise<string> {
  const token = createRandomToken()
  await ctx.store.refreshTokens.create({
    id: createId(),
    sessionId,
    hash: hashToken(token),
    createdAt: ctx.clock.now(),
    retiredAt: null,
    childId: null,
    graceBox: null,
  })
  return token
}

export function findRefreshToken(ctx: DomainContext, token: string): RefreshTokenRecord | undefined {
  const hash = hashToken(token)
  return ctx.store.refreshTokens.findBy('hash', hash)
}

/**
 * Rotates a refresh token. The live token yields a new pair and retires; its immediate parent,
 * within the grace window, yields the same live pair again; any other reuse revokes the family.
 */
export async function rotateRefreshToken(ctx: DomainContext, token: string): Promise<RefreshOutcome> {
  const found = findRefreshToken(ctx, token)
  if (!found) return { ok: false, code: 'refresh_invalid' }
  return ctx.locks.run(`family:${found.sessionId}`, async () => {
    const record = ctx.store.refreshTokens.findBy('id', found.id)
    const session = ctx.store.sessions.findBy('id', found.sessionId)
    const now = ctx.clock.now()
    if (!record || !session || session.revokedAt !== null)
      return { ok: false, code: 'refresh_invalid' } as const
    if (session.expiresAt <= now) return { ok: false, code: 'refresh_expired' } as const
    if (record.retiredAt === null)
      return { ok: true, pair: await rotate(ctx, record, session, token), session }
    const graceOpen = now - record.retiredAt <= ctx.config.refreshGraceMs
    const child = record.childId ? ctx.store.refreshTokens.findBy('id', record.childId) : undefined
    const sealed =
      graceOpen && child?.retiredAt === null && record.graceBox ? openBox(token, record.graceBox) : null
    if (sealed) return { ok: true, pair: JSON.parse(sealed) as TokenPair, session }
    await revokeSession(ctx, session.id, 'refresh_reused')
    return { ok: false, code: 'refresh_reused' } as const
  })
}

async function rotate(ctx: DomainContext, record: RefreshTokenRecord, session: SessionRecord, token: string) {
  const refresh_token = createRandomToken()
  const childId = createId()
  const now = ctx.clock.now()
  await ctx.store.refreshTokens.create({
    id: childId,
    sessionId: session.id,
    hash: hashToken(refresh_token),
    createdAt: now,
    retiredAt: null,
    childId: null,
    graceBox: null,
  })
  const pair = { token: await signAccessToken(ctx, session.userId, session.id), refresh_token }
  await ctx.store.refreshTokens.update(record, {
    data(draft) {
      draft.retiredAt = now
      draft.childId = childId
      draft.graceBox = sealBox(token, JSON.stringify(pair))
    },
  })
  return pair
}
