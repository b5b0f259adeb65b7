// The browser stand-ins give the bytes Node gives (docs/decisions/021-serverless-demo.md): hashes, HMACs, AES-GCM
// boxes that each side opens, base64url; and the argon2id of hash-wasm verifies @node-rs/argon2's hashes
// and the other way round.
import * as node from 'node:crypto'
import * as rs from '@node-rs/argon2'
import { describe, expect, test } from 'vitest'
import * as wasm from './argon2.ts'
import { BrowserBuffer } from './buffer.ts'
import * as browser from './node-crypto.ts'

const TEXTS = ['', 'a', 'grace-box\u0001', 'é ü 漢字 🙂', 'x'.repeat(1000)]

describe('node:crypto in the browser', () => {
  test('SHA-256 and HMAC-SHA256 as Node, as bytes and as base64url', () => {
    for (const text of TEXTS) {
      expect(browser.createHash('sha256').update(text).digest('base64url')).toBe(
        node.createHash('sha256').update(text).digest('base64url'),
      )
      const key = browser.createSecretKey(BrowserBuffer.from('a secret', 'utf8'))
      expect(browser.createHmac('sha256', key).update(text).digest('base64url')).toBe(
        node.createHmac('sha256', 'a secret').update(text).digest('base64url'),
      )
      expect([...browser.createHmac('sha256', 'k').update('a').update(text).digest()]).toEqual([
        ...node.createHmac('sha256', 'k').update('a').update(text).digest(),
      ])
    }
  })

  test('AES-256-GCM boxes open on the other side; a wrong tag fails', () => {
    const key = node.randomBytes(32)
    const iv = node.randomBytes(12)
    const cipher = browser.createCipheriv('aes-256-gcm', key, iv)
    const body = BrowserBuffer.concat([cipher.update('the new pair', 'utf8'), cipher.final()])
    const decipher = node.createDecipheriv('aes-256-gcm', key, iv)
    decipher.setAuthTag(cipher.getAuthTag())
    expect(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8')).toBe('the new pair')

    const sealed = node.createCipheriv('aes-256-gcm', key, iv)
    const nodeBody = Buffer.concat([sealed.update('back again', 'utf8'), sealed.final()])
    const opener = browser.createDecipheriv('aes-256-gcm', key, iv)
    opener.setAuthTag(sealed.getAuthTag())
    opener.update(nodeBody)
    expect(opener.final().toString('utf8')).toBe('back again')

    const forged = browser.createDecipheriv('aes-256-gcm', key, iv)
    forged.setAuthTag(new Uint8Array(16))
    forged.update(nodeBody)
    expect(() => forged.final()).toThrow()
  })

  test('random draws: sizes, range, and no two alike', () => {
    expect(browser.randomBytes(70_000)).toHaveLength(70_000)
    const codes = Array.from({ length: 2000 }, () => browser.randomInt(0, 10))
    expect(new Set(codes)).toEqual(new Set([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]))
    expect(browser.randomBytes(32).toString('base64url')).not.toBe(
      browser.randomBytes(32).toString('base64url'),
    )
    expect(() => browser.randomInt(5, 5)).toThrow(RangeError)
  })

  test('timingSafeEqual compares whole buffers and refuses different lengths, as Node', () => {
    expect(browser.timingSafeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 2))).toBe(true)
    expect(browser.timingSafeEqual(Uint8Array.of(1, 2), Uint8Array.of(1, 3))).toBe(false)
    expect(() => browser.timingSafeEqual(Uint8Array.of(1), Uint8Array.of(1, 2))).toThrow(RangeError)
  })
})

describe('Buffer in the browser', () => {
  test('encodes and decodes as Node', () => {
    for (const text of TEXTS) {
      for (const encoding of ['base64url', 'base64', 'hex', 'utf8'] as const) {
        const encoded = Buffer.from(text).toString(encoding)
        expect(BrowserBuffer.from(text).toString(encoding)).toBe(encoded)
        expect([...BrowserBuffer.from(encoded, encoding)]).toEqual([...Buffer.from(encoded, encoding)])
      }
      expect(BrowserBuffer.byteLength(text)).toBe(Buffer.byteLength(text))
    }
    // Not canonical base64url (domain/base64url.ts relies on the round trip telling it apart).
    expect(BrowserBuffer.from('aGk_Pz5', 'base64url').toString('base64url')).toBe(
      Buffer.from('aGk_Pz5', 'base64url').toString('base64url'),
    )
    expect(BrowserBuffer.from('abcdef').toString('utf8', 1, 3)).toBe('bc')
  })
})

describe('argon2id in WebAssembly', () => {
  const params = { algorithm: 2, memoryCost: 1024, timeCost: 1, parallelism: 1 }

  test("verifies @node-rs/argon2's hashes, and makes hashes it verifies", async () => {
    const native = await rs.hash('correct horse', params)
    expect(await wasm.verify(native, 'correct horse')).toBe(true)
    expect(await wasm.verify(native, 'wrong horse')).toBe(false)
    const made = await wasm.hash('correct horse', params)
    expect(made).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/)
    expect(await rs.verify(made, 'correct horse')).toBe(true)
    expect(await wasm.verify(made, 'correct horse')).toBe(true)
    expect(await wasm.hash('correct horse', params)).not.toBe(made) // a salt of its own each time
  })
})
