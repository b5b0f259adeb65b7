// The keys of one server's secret and the access tokens already verified under it: made once per domain context,
// so two servers in one process share none, and remade when the secret changes (a data file loaded at start).
import { createSecretKey, type KeyObject } from 'node:crypto'
import type { JWTPayload } from 'jose'

/** The verified tokens kept per server, the oldest first out. */
const VERIFIED_KEPT = 1_000

export interface TokenKeys {
  /** The secret as a WebCrypto HMAC key, for jose's verification: importing it at every verify was most of its cost. */
  signing(secret: string): Promise<CryptoKey>
  /** The secret as a node:crypto key, for signing (tokens.ts says why not jose's SignJWT). */
  hmac(secret: string): KeyObject
  /** The claims of a token that passed jose's verification under `secret`, if it did before. */
  verified(secret: string, token: string): JWTPayload | undefined
  rememberVerified(secret: string, token: string, payload: JWTPayload): void
}

export function createTokenKeys(): TokenKeys {
  let current: string | undefined
  let signing: Promise<CryptoKey> | undefined
  let hmac: KeyObject | undefined
  let verified = new Map<string, JWTPayload>()
  const under = (secret: string) => {
    if (secret === current) return
    current = secret
    signing = undefined
    hmac = undefined
    verified = new Map()
  }
  return {
    signing(secret) {
      under(secret)
      return (signing ??= crypto.subtle.importKey(
        'raw',
        new TextEncoder().encode(secret),
        { name: 'HMAC', hash: 'SHA-256' },
        false,
        ['sign', 'verify'],
      ))
    },
    hmac(secret) {
      under(secret)
      return (hmac ??= createSecretKey(Buffer.from(secret)))
    },
    verified(secret, token) {
      under(secret)
      return verified.get(token)
    },
    rememberVerified(secret, token, payload) {
      under(secret)
      if (verified.size >= VERIFIED_KEPT) verified.delete(verified.keys().next().value as string)
      verified.set(token, payload)
    },
  }
}
