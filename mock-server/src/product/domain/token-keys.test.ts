// The keys of one server's secret: remade when the secret changes, and the verified tokens kept are bounded.
import { createHmac } from 'node:crypto'
import { expect, test } from 'vitest'
import { createTokenKeys } from './token-keys.ts'

/** What a key signs `data` to, as base64url, whichever API holds it. */
async function webSign(key: CryptoKey, data: string): Promise<string> {
  return Buffer.from(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(data))).toString(
    'base64url',
  )
}
const nodeSign = (key: Parameters<typeof createHmac>[1], data: string) =>
  createHmac('sha256', key).update(data).digest('base64url')

test('both keys are the HMAC keys of the current secret, and a new secret remakes both', async () => {
  const keys = createTokenKeys()
  for (const secret of ['first secret', 'second secret', 'first secret']) {
    const expected = nodeSign(secret, 'header.payload')
    expect(nodeSign(keys.hmac(secret), 'header.payload'), secret).toBe(expected)
    expect(await webSign(await keys.signing(secret), 'header.payload'), secret).toBe(expected)
    // The same secret again is the same key object: made once, not at every use.
    expect(keys.hmac(secret)).toBe(keys.hmac(secret))
    expect(await keys.signing(secret)).toBe(await keys.signing(secret))
  }
})

test('a token verified under one secret is not verified under another, nor under the first once it changed', () => {
  const keys = createTokenKeys()
  keys.rememberVerified('first secret', 'token', { sub: 'user-1' })
  expect(keys.verified('first secret', 'token')).toEqual({ sub: 'user-1' })
  expect(keys.verified('second secret', 'token')).toBeUndefined()
  expect(keys.verified('first secret', 'token')).toBeUndefined()
})

test('at most 1,000 verified tokens are kept, the oldest first out', () => {
  const keys = createTokenKeys()
  for (let i = 0; i < 1_000; i += 1) keys.rememberVerified('secret', `token-${i}`, { jti: String(i) })
  expect(keys.verified('secret', 'token-0')).toEqual({ jti: '0' })
  keys.rememberVerified('secret', 'token-1000', { jti: '1000' })
  expect(keys.verified('secret', 'token-0')).toBeUndefined()
  expect(keys.verified('secret', 'token-1')).toEqual({ jti: '1' })
  expect(keys.verified('secret', 'token-1000')).toEqual({ jti: '1000' })
})

test('the WebCrypto key cannot be exported: the secret never leaves it', async () => {
  const key = await createTokenKeys().signing('secret')
  expect(key.extractable).toBe(false)
  await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow()
})
