// What the reference servers (bare node:http, bare Express 5) do on the benched routes, the way the mock server does
// it at its simplest: the session call answers `{}`; `GET /api/me` verifies the bearer JWT (HS256, jose) and answers
// the user; the refresh looks the token up by its SHA-256, retires it, mints a new one and signs a new access token.
// No validation, no rate limit, no journal: the floor a framework and jose set.
import { createHash, randomBytes } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'

const secret = randomBytes(32)
const user = { id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' }
const refreshTokens = new Map<string, string>()
const sha256 = (token: string) => createHash('sha256').update(token).digest('base64url')

export const NO_STORE = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }

function signAccess(subject: string): Promise<string> {
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('15m')
    .sign(secret)
}

/** A signed-in pair, as a sign-in would give (the bench asks for one before measuring). */
export async function signIn(): Promise<{ token: string; refresh_token: string }> {
  const refresh = randomBytes(32).toString('base64url')
  refreshTokens.set(sha256(refresh), user.id)
  return { token: await signAccess(user.id), refresh_token: refresh }
}

export async function me(authorization: string | undefined): Promise<{ status: number; body: unknown }> {
  const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1]
  if (!token) return { status: 401, body: { error: 'token_invalid' } }
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] })
    return payload.sub === user.id
      ? { status: 200, body: user }
      : { status: 401, body: { error: 'token_invalid' } }
  } catch {
    return { status: 401, body: { error: 'token_invalid' } }
  }
}

export async function refresh(body: unknown): Promise<{ status: number; body: unknown }> {
  const presented = (body as { refresh_token?: unknown } | null)?.refresh_token
  const subject = typeof presented === 'string' ? refreshTokens.get(sha256(presented)) : undefined
  if (typeof presented !== 'string' || subject === undefined)
    return { status: 401, body: { success: false, error: 'refresh_invalid', message: 'Unknown.' } }
  refreshTokens.delete(sha256(presented))
  const next = randomBytes(32).toString('base64url')
  refreshTokens.set(sha256(next), subject)
  return { status: 200, body: { success: true, token: await signAccess(subject), refresh_token: next } }
}
