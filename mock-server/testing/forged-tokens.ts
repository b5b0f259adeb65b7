// Access tokens a test writes and signs with a server's own secret: what only the secret's holder can make, so the
// token tests (product/domain/tokens*.test.ts) can vary one thing the server would write differently.
import { createHmac } from 'node:crypto'

/** The header the server writes on its access tokens (product/domain/tokens.ts). */
export const SERVER_HEADER = { alg: 'HS256', typ: 'at+jwt' } as const

/** A JSON value as one base64url segment. */
export const encodeSegment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')

/** A compact JWS over the segments as given, signed with `secret`: only the spelling is the test's. */
export function signSegments(secret: string, header: string, payload: string): string {
  const signature = createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')
  return `${header}.${payload}.${signature}`
}

/** `claims` under `header`, signed with `secret`. */
export const forgeToken = (secret: string, claims: object, header: object = SERVER_HEADER) =>
  signSegments(secret, encodeSegment(header), encodeSegment(claims))

/**
 * The claims the server writes for an account's session at `nowMs`, living `ttlSeconds`.
 * @example forgeToken(ctx.config.secret, { ...writtenClaims(session.id, ctx.clock.now()), sub: 42 })
 */
export function writtenClaims(sid: string, nowMs: number, ttlSeconds = 60) {
  const iat = Math.floor(nowMs / 1000)
  return {
    sid,
    sub: 'user-1',
    iss: 'auth-shell-mock',
    aud: 'auth-shell-api',
    jti: 'jti-1',
    iat,
    exp: iat + ttlSeconds,
  }
}
