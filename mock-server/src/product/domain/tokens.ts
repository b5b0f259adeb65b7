// Access tokens (HS256 JWTs with exp, iat, sub, sid, jti) and refresh tokens (opaque, stored hashed,
// rotated on every use, with a grace window for the immediate parent and family revocation on reuse).
import type { components } from '#api/openapi.gen.ts'
import { createHmac } from 'node:crypto'
import { errors, jwtVerify, type JWTHeaderParameters, type JWTPayload } from 'jose'
import { isCanonicalBase64url } from './base64url.ts'
import type { DomainContext } from './context.ts'
import { hashToken, openBox, safeEqual, sealBox } from '../../shared/crypto.ts'
import { revokeSession } from './sessions.ts'
import type { RefreshTokenRecord, SessionRecord, UserRecord } from '../storage/records.ts'

const ALGORITHM = 'HS256'
const ISSUER = 'auth-shell-mock'
/** RFC 9068's type of a JWT access token: no other JWT this server might sign passes for one. */
const TOKEN_TYPE = 'at+jwt'
/** The API the token is for. */
const AUDIENCE = 'auth-shell-api'

type Schemas = components['schemas']
export type TokenPair = Pick<Schemas['SignedInBody'], 'token' | 'refresh_token'>

export type AccessCheck =
  /** `user`: the account, read with the session in one step; null when it is gone. */
  | { ok: true; userId: string; sessionId: string; user: UserRecord | null }
  | { ok: false; code: Extract<Schemas['ErrorCode'], 'token_expired' | 'token_invalid' | 'session_revoked'> }

export type RefreshOutcome =
  | { ok: true; pair: TokenPair; session: SessionRecord }
  | {
      ok: false
      code: Extract<Schemas['ErrorCode'], 'refresh_invalid' | 'refresh_expired' | 'refresh_reused'>
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
    jti: ctx.random.id(),
    iat: now,
    exp: now + Math.round(ctx.config.accessTokenTtlMs / 1000),
  }
  const signingInput = `${ENCODED_HEADER}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}`
  const signature = createHmac('sha256', ctx.tokenKeys.hmac(ctx.config.secret))
    .update(signingInput)
    .digest('base64url')
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

/** The three segments of a token, each written as this server writes base64url (one token, one spelling); else null. */
function canonicalSegments(token: string): [header: string, payload: string, signature: string] | null {
  const segments = token.split('.')
  return segments.length === 3 && segments.every(isCanonicalBase64url)
    ? (segments as [string, string, string])
    : null
}

/**
 * Written as this server writes its access tokens, beyond what jose's options hold: the short `typ` (jose takes
 * `application/at+jwt` too), one audience as a string (not a list holding it), and a subject and session id that are
 * text. Both readers ask it, so verifyAccessToken and getSignedAccessTokenSubject agree on every token the secret
 * signs.
 */
function isWrittenHere(
  head: Record<string, unknown>,
  claims: Record<string, unknown>,
): claims is JWTPayload & { sub: string; sid: string } {
  return (
    head.alg === ALGORITHM &&
    head.typ === TOKEN_TYPE &&
    claims.iss === ISSUER &&
    claims.aud === AUDIENCE &&
    typeof claims.sub === 'string' &&
    typeof claims.sid === 'string'
  )
}

/** jose's own time checks (its `exp` and `nbf` rules, no tolerance), for a token whose signature it verified before. */
function checkTimes(ctx: DomainContext, payload: JWTPayload): AccessCheck | null {
  const now = Math.floor(ctx.clock.now() / 1000)
  if (typeof payload.nbf === 'number' && payload.nbf > now) return { ok: false, code: 'token_invalid' }
  if (typeof payload.exp !== 'number' || payload.exp <= now) return { ok: false, code: 'token_expired' }
  return null
}

export async function verifyAccessToken(ctx: DomainContext, token: string): Promise<AccessCheck> {
  // A token used again is not verified again: what jose checked (signature, header, issuer, audience, claims) cannot
  // change for the same string under the same secret; the times and the session are checked at every use
  // (docs/decisions/013-mock-server-speed.md).
  let payload = ctx.tokenKeys.verified(ctx.config.secret, token)
  if (payload) {
    const refused = checkTimes(ctx, payload)
    if (refused) return refused
  } else {
    // A decoder that drops padding, maps + and / or ignores trailing bits would accept other spellings of a signature.
    if (!canonicalSegments(token)) return { ok: false, code: 'token_invalid' }
    let header: JWTHeaderParameters
    try {
      ;({ payload, protectedHeader: header } = await jwtVerify(
        token,
        await ctx.tokenKeys.signing(ctx.config.secret),
        verifyOptions(ctx),
      ))
    } catch (error) {
      return { ok: false, code: error instanceof errors.JWTExpired ? 'token_expired' : 'token_invalid' }
    }
    if (!isWrittenHere(header, payload)) return { ok: false, code: 'token_invalid' }
    ctx.tokenKeys.rememberVerified(ctx.config.secret, token, payload)
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
  // Only a token written here is remembered or passes (isWrittenHere), so its session id is text.
  const sessionId = payload.sid as string
  const found = await ctx.store.sessions.byIdWithUser(sessionId)
  const session = found?.session
  if (!session || session.userId !== payload.sub) return { ok: false, code: 'token_invalid' }
  if (session.revokedAt !== null || session.expiresAt <= ctx.clock.now())
    return { ok: false, code: 'session_revoked' }
  return { ok: true, userId: session.userId, sessionId, user: found.user }
}

/**
 * The subject of an access token this server signed, expired or not (an expired token still names its account
 * for scenarios and the journal); null for anything unsigned, forged or malformed. Synchronous on purpose: calls
 * take armed scenarios in the order they arrive, so nothing may be awaited before that.
 */
export function getSignedAccessTokenSubject(ctx: DomainContext, token: string): string | null {
  const verified = ctx.tokenKeys.verified(ctx.config.secret, token)
  // Only a token written here is remembered (verifyAccessToken), so its subject is text.
  if (verified) return verified.sub as string
  const segments = canonicalSegments(token)
  if (!segments) return null
  const [header, payload, signature] = segments
  const expected = createHmac('sha256', ctx.config.secret).update(`${header}.${payload}`).digest('base64url')
  if (!safeEqual(signature, expected)) return null
  try {
    const head = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>
    return isWrittenHere(head, claims) ? claims.sub : null
  } catch {
    return null
  }
}

/** Issues the first refresh token of a session (family). */
export async function issueRefreshToken(ctx: DomainContext, sessionId: string): Promise<string> {
  const token = ctx.random.token()
  await ctx.store.refreshTokens.create(newRefreshToken(ctx, sessionId, token))
  return token
}

function newRefreshToken(ctx: DomainContext, sessionId: string, token: string): RefreshTokenRecord {
  return {
    id: ctx.random.id(),
    sessionId,
    hash: hashToken(token),
    createdAt: ctx.clock.now(),
    retiredAt: null,
    childId: null,
    graceBox: null,
  }
}

export async function findRefreshToken(
  ctx: DomainContext,
  token: string,
): Promise<RefreshTokenRecord | null> {
  return ctx.store.refreshTokens.byHash(hashToken(token))
}

/**
 * Rotates a refresh token. The live token yields a new pair and retires; its immediate parent,
 * within the grace window, yields the same live pair again; any other reuse revokes the family.
 * Of concurrent rotations of one live token exactly one retires it (the store's compare-and-set); the others
 * then meet it retired and take the grace path, as a late duplicate does.
 */
export async function rotateRefreshToken(ctx: DomainContext, token: string): Promise<RefreshOutcome> {
  // The token and its session in one read: a refresh is this read and its rotation (docs/benchmarks.md).
  const read = await ctx.store.refreshTokens.byHashWithSession(hashToken(token))
  if (!read) return { ok: false, code: 'refresh_invalid' }
  const { token: found, session } = read
  if (!session || session.revokedAt !== null) return { ok: false, code: 'refresh_invalid' }
  if (session.expiresAt <= ctx.clock.now()) return { ok: false, code: 'refresh_expired' }
  if (found.retiredAt === null) {
    const pair = await rotate(ctx, found, session, token)
    if (pair) return { ok: true, pair, session }
  }
  return replay(ctx, found.id, session, token)
}

/** A retired token: within the grace window its sealed pair, while that pair's token lives; else reuse. */
async function replay(
  ctx: DomainContext,
  id: string,
  session: SessionRecord,
  token: string,
): Promise<RefreshOutcome> {
  const record = await ctx.store.refreshTokens.byId(id)
  if (!record || record.retiredAt === null) return { ok: false, code: 'refresh_invalid' }
  const graceOpen = ctx.clock.now() - record.retiredAt <= ctx.config.refreshGraceMs
  const child = graceOpen && record.childId ? await ctx.store.refreshTokens.byId(record.childId) : null
  const sealed = child?.retiredAt === null && record.graceBox ? openBox(token, record.graceBox) : null
  // The session is read again: a revocation since the first read ends the family's grace too.
  const live = sealed ? await ctx.store.sessions.byId(session.id) : null
  if (sealed && live?.revokedAt === null) return { ok: true, pair: JSON.parse(sealed) as TokenPair, session }
  if (live && live.revokedAt !== null) return { ok: false, code: 'refresh_invalid' }
  await revokeSession(ctx, session.id, 'refresh_reused')
  return { ok: false, code: 'refresh_reused' }
}

/** The successor pair, or null when another rotation retired the token first. */
async function rotate(ctx: DomainContext, record: RefreshTokenRecord, session: SessionRecord, token: string) {
  const refresh_token = ctx.random.token()
  const child = newRefreshToken(ctx, session.id, refresh_token)
  const pair = { token: await signAccessToken(ctx, session.userId, session.id), refresh_token }
  const rotated = await ctx.store.refreshTokens.rotate({
    parentId: record.id,
    child,
    retiredAt: child.createdAt,
    graceBox: sealBox(token, JSON.stringify(pair), ctx.random),
  })
  return rotated ? pair : null
}
