// What the reference servers (bare node:http, bare Express 5) do on the benched routes, at their simplest.
// The refresh does what docs/decisions/004-tokens-sessions-codes.md asks, written plainly.
// No validation, rate limit, headers or journal: this is the floor the bench compares against.
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto'
import { jwtVerify, SignJWT } from 'jose'

const secret = randomBytes(32)
const user = { id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' }
const ACCESS_TTL_S = 15 * 60
const FAMILY_TTL_MS = 24 * 60 * 60 * 1000
const GRACE_MS = 10_000

interface Family {
  userId: string
  expiresAt: number
  revoked: boolean
}
interface RefreshRecord {
  family: string
  retiredAt: number | null
  childHash: string | null
  /** The pair this token's rotation gave, sealed under this token. */
  graceBox: string | null
}
const families = new Map<string, Family>()
/** Every refresh token of every family by its SHA-256, the retired ones too (reuse is recognised by them). */
const refreshTokens = new Map<string, RefreshRecord>()
const sha256 = (token: string) => createHash('sha256').update(token).digest('base64url')
const newToken = () => randomBytes(32).toString('base64url')
const newId = () => randomBytes(9).toString('base64url')

export const NO_STORE = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' }

type Pair = { token: string; refresh_token: string }
type Answer = { status: number; body: unknown }

/** The mock server's access token: the same header and claims (docs/decisions/004-tokens-sessions-codes.md). */
function signAccess(subject: string, family: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  return new SignJWT({ sid: family })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setSubject(subject)
    .setIssuer('auth-shell-mock')
    .setAudience('auth-shell-api')
    .setJti(newId())
    .setIssuedAt(now)
    .setExpirationTime(now + ACCESS_TTL_S)
    .sign(secret)
}

function boxKey(token: string): Buffer {
  return Buffer.from(hkdfSync('sha256', token, 'refresh-grace', 'grace-box', 32))
}

function seal(token: string, plain: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', boxKey(token), iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.')
}

function open(token: string, box: string): string | null {
  const [iv, tag, body] = box.split('.').map((part) => Buffer.from(part, 'base64url'))
  try {
    const decipher = createDecipheriv('aes-256-gcm', boxKey(token), iv!)
    decipher.setAuthTag(tag!)
    return Buffer.concat([decipher.update(body!), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}

/** A signed-in pair, as a sign-in would give (the bench asks for one before measuring). */
export async function signIn(): Promise<Pair> {
  const family = newId()
  families.set(family, { userId: user.id, expiresAt: Date.now() + FAMILY_TTL_MS, revoked: false })
  const refresh = newToken()
  refreshTokens.set(sha256(refresh), { family, retiredAt: null, childHash: null, graceBox: null })
  return { token: await signAccess(user.id, family), refresh_token: refresh }
}

export async function me(authorization: string | undefined): Promise<Answer> {
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

const refused = (error: string): Answer => ({
  status: 401,
  body: { success: false, error, message: 'Refused.' },
})

export async function refresh(body: unknown): Promise<Answer> {
  const presented = (body as { refresh_token?: unknown } | null)?.refresh_token
  if (typeof presented !== 'string') return refused('refresh_invalid')
  const record = refreshTokens.get(sha256(presented))
  const family = record && families.get(record.family)
  if (!record || !family || family.revoked) return refused('refresh_invalid')
  const now = Date.now()
  if (family.expiresAt <= now) return refused('refresh_expired')
  if (record.retiredAt === null) {
    const next = newToken()
    const childHash = sha256(next)
    refreshTokens.set(childHash, { family: record.family, retiredAt: null, childHash: null, graceBox: null })
    const pair = { token: await signAccess(family.userId, record.family), refresh_token: next }
    Object.assign(record, { retiredAt: now, childHash, graceBox: seal(presented, JSON.stringify(pair)) })
    return { status: 200, body: { success: true, ...pair } }
  }
  // A retry of the live token's parent inside the grace window gets the same pair; any other reuse ends the family.
  const childLive = record.childHash !== null && refreshTokens.get(record.childHash)?.retiredAt === null
  const sealed =
    now - record.retiredAt <= GRACE_MS && childLive && record.graceBox
      ? open(presented, record.graceBox)
      : null
  if (sealed) return { status: 200, body: { success: true, ...(JSON.parse(sealed) as Pair) } }
  family.revoked = true
  return refused('refresh_reused')
}
