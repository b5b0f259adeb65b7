// The part of node:crypto the mock server uses, for the demo's browser build (docs/decisions/021-serverless-demo.md).
// It is synchronous like Node's, so the domain code runs unchanged, and gives the same bytes
// (node-crypto.test.ts compares them).
import { gcm } from '@noble/ciphers/aes.js'
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { BrowserBuffer, type BrowserBufferBase } from './buffer.ts'

type Digest = 'base64url' | 'base64' | 'hex'
type Data = string | Uint8Array

const encoder = new TextEncoder()
const bytesOf = (data: Data): Uint8Array => (typeof data === 'string' ? encoder.encode(data) : data)

/** A secret key as createSecretKey makes it: here, the bytes themselves. */
export interface KeyObject {
  readonly type: 'secret'
  readonly bytes: Uint8Array
}

export function createSecretKey(bytes: Uint8Array): KeyObject {
  return { type: 'secret', bytes: Uint8Array.from(bytes) }
}

function onlySha256(algorithm: string): void {
  if (algorithm.toLowerCase() !== 'sha256') throw new Error(`Digest method not supported: ${algorithm}`)
}

function digestable(hash: { update(bytes: Uint8Array): unknown; digest(): Uint8Array }) {
  const self = {
    update(data: Data) {
      hash.update(bytesOf(data))
      return self
    },
    digest(encoding?: Digest) {
      const bytes = BrowserBuffer.from(hash.digest())
      return encoding ? bytes.toString(encoding) : bytes
    },
  }
  return self as {
    update(data: Data): typeof self
    digest(): BrowserBufferBase
    digest(encoding: Digest): string
  }
}

export function createHash(algorithm: string) {
  onlySha256(algorithm)
  return digestable(sha256.create())
}

export function createHmac(algorithm: string, key: Data | KeyObject) {
  onlySha256(algorithm)
  const raw =
    typeof key === 'object' && 'type' in key && key.type === 'secret' ? key.bytes : bytesOf(key as Data)
  return digestable(hmac.create(sha256, raw))
}

/** crypto.getRandomValues fills at most 65,536 bytes a call. */
export function randomFillSync<T extends Uint8Array<ArrayBuffer>>(target: T): T {
  for (let offset = 0; offset < target.length; offset += 65_536)
    crypto.getRandomValues(target.subarray(offset, offset + 65_536))
  return target
}

export function randomBytes(size: number) {
  return randomFillSync(BrowserBuffer.alloc(size))
}

/** A uniform integer in [min, max), by rejection (no modulo bias), as Node's randomInt. */
export function randomInt(min: number, max: number): number {
  const range = max - min
  if (!Number.isSafeInteger(range) || range <= 0 || range > 2 ** 48)
    throw new RangeError('randomInt: the range must be a positive safe integer up to 2^48.')
  const limit = 2 ** 48 - (2 ** 48 % range)
  const words = new Uint16Array(3)
  for (;;) {
    crypto.getRandomValues(words)
    const value = words[0]! * 2 ** 32 + words[1]! * 2 ** 16 + words[2]!
    if (value < limit) return min + (value % range)
  }
}

export function timingSafeEqual(left: Uint8Array, right: Uint8Array): boolean {
  if (left.length !== right.length) throw new RangeError('Input buffers must have the same byte length')
  let difference = 0
  for (let index = 0; index < left.length; index += 1) difference |= left[index]! ^ right[index]!
  return difference === 0
}

function onlyAesGcm(algorithm: string, key: Uint8Array): void {
  if (algorithm !== 'aes-256-gcm' || key.length !== 32) throw new Error(`Invalid cipher: ${algorithm}`)
}

const concat = (parts: Uint8Array[]) => BrowserBuffer.concat(parts)

/** AES-256-GCM as Node's cipher: what update takes is sealed at final, and the tag is kept apart. */
export function createCipheriv(algorithm: string, key: Uint8Array, iv: Uint8Array) {
  onlyAesGcm(algorithm, key)
  const parts: Uint8Array[] = []
  let tag: Uint8Array | null = null
  return {
    update(data: Data, _encoding?: 'utf8') {
      parts.push(bytesOf(data))
      return BrowserBuffer.alloc(0)
    },
    final() {
      const sealed = gcm(key, iv).encrypt(concat(parts))
      tag = sealed.subarray(sealed.length - 16)
      return BrowserBuffer.from(sealed.subarray(0, sealed.length - 16))
    },
    getAuthTag() {
      if (!tag) throw new Error('Invalid state for operation getAuthTag')
      return BrowserBuffer.from(tag)
    },
  }
}

/** Opens what createCipheriv sealed; final throws when the key, the tag or the text is wrong. */
export function createDecipheriv(algorithm: string, key: Uint8Array, iv: Uint8Array) {
  onlyAesGcm(algorithm, key)
  const parts: Uint8Array[] = []
  let tag: Uint8Array = new Uint8Array(0)
  return {
    setAuthTag(value: Uint8Array) {
      tag = value
    },
    update(data: Uint8Array) {
      parts.push(data)
      return BrowserBuffer.alloc(0)
    },
    final() {
      if (tag.length !== 16) throw new Error('Invalid authentication tag length')
      return BrowserBuffer.from(gcm(key, iv).decrypt(concat([...parts, tag])))
    },
  }
}
