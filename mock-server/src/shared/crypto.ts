// Small cryptographic helpers: random tokens, keyed hashes, constant-time comparison, the grace box.
// Functions over node:crypto; no clock, no I/O. The pool of random bytes is made per core (createRandomPool).
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomFillSync,
  randomInt,
  timingSafeEqual,
} from 'node:crypto'

/** Random bytes, as base64url or as a Buffer of their own: a source every draw goes through. */
export interface RandomSource {
  /** An opaque token of `bytes` random bytes (default 32 = 256 bits), base64url. */
  token(bytes?: number): string
  /** A random id for records (not secret). */
  id(): string
  bytes(count: number): Buffer
}

/**
 * Random bytes drawn from the CSPRNG 4 KiB at a time and handed out once each, wiped as they go: small randomBytes
 * calls cost several times their bytes, and a refresh takes four (docs/decisions/013-mock-server-speed.md).
 * Each core makes its own, so two servers share no bytes.
 */
export function createRandomPool(poolBytes = 4096): RandomSource {
  const pool = Buffer.alloc(poolBytes)
  let offset = poolBytes
  function draw(bytes: number): [start: number, end: number] {
    if (offset + bytes > poolBytes) {
      randomFillSync(pool)
      offset = 0
    }
    offset += bytes
    return [offset - bytes, offset]
  }
  return {
    token(bytes = 32) {
      if (bytes > poolBytes) return randomBytes(bytes).toString('base64url')
      const [start, end] = draw(bytes)
      const drawn = pool.toString('base64url', start, end)
      pool.fill(0, start, end)
      return drawn
    },
    id() {
      return this.token(9)
    },
    bytes(count) {
      if (count > poolBytes) return randomBytes(count)
      const [start, end] = draw(count)
      const drawn = Buffer.from(pool.subarray(start, end))
      pool.fill(0, start, end)
      return drawn
    },
  }
}

/** An opaque token of `bytes` random bytes (default 32 = 256 bits), base64url, straight from the CSPRNG. */
export function createRandomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url')
}

/** A random id for records (not secret), straight from the CSPRNG. */
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

/**
 * HKDF-SHA256 (RFC 5869) of the retired token, salt `refresh-grace`, info `grace-box`, 32 bytes: one block, so
 * extract and expand are one HMAC each. The same bytes as node:crypto's hkdfSync (domain.test.ts compares them),
 * at a quarter of its cost: hkdfSync runs as a crypto job with a copy of every input.
 */
export function boxKey(secret: string): Buffer {
  const pseudoRandomKey = createHmac('sha256', 'refresh-grace').update(secret).digest()
  return createHmac('sha256', pseudoRandomKey).update('grace-box\u0001').digest()
}

/**
 * Encrypts `plain` under a key derived from `secret` (AES-256-GCM). A refresh seals the new pair under the retired
 * token, so only its holder can recover it in the grace window, and the server keeps no token in clear.
 */
export function sealBox(secret: string, plain: string, random: RandomSource): string {
  const iv = random.bytes(12)
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
