// Small cryptographic helpers: random tokens, keyed hashes, constant-time comparison, the grace box.
// Pure functions over node:crypto; no clock, no I/O.
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomInt,
  timingSafeEqual,
} from 'node:crypto'

/** An opaque token of `bytes` random bytes (default 32 = 256 bits), base64url. */
export function createRandomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** A random id for records (not secret). */
export function createId(): string {
  return randomBytes(9).toString('base64url')
}

/** A numeric one-time code of `digits` digits, uniformly random. */
export function createNumericCode(digits: number): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0')
}

/** SHA-256 of a high-entropy token, for lookup by hash (tokens are never stored in clear). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('base64url')
}

/** A keyed hash, for low-entropy secrets such as one-time codes. */
export function keyedHash(key: string, ...parts: string[]): string {
  return createHmac('sha256', key).update(parts.join('\u0000')).digest('base64url')
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a).digest()
  const right = createHash('sha256').update(b).digest()
  return timingSafeEqual(left, right) && a.length === b.length
}

function boxKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'refresh-grace', 'grace-box', 32))
}

/**
 * Encrypts `plain` under a key derived from `secret` (AES-256-GCM). The refresh rotation seals the
 * new pair under the retired token, so only a client that still holds that token can recover it
 * within the grace window, and the server keeps no token in clear.
 */
export function sealBox(secret: string, plain: string): string {
  const iv = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', boxKey(secret), iv)
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64url')).join('.')
}

/** Opens a box sealed by `sealBox`, or returns null when the secret or the box is wrong. */
export function openBox(secret: string, box: string): string | null {
  const [iv, tag, body] = box.split('.').map((part) => Buffer.from(part, 'base64url'))
  if (!iv || !tag || !body) return null
  try {
    const decipher = createDecipheriv('aes-256-gcm', boxKey(secret), iv)
    decipher.setAuthTag(tag)
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')
  } catch {
    return null
  }
}
