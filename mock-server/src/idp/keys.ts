// The OpenID provider's signing key: one ES256 key pair for the life of the process, or for every instance on one
// database when `share` hands back the one the first instance stored (compose/sql-idp.ts), its `kid` the RFC 7638
// thumbprint. Made with Web Crypto, which Node and the browser both have; it is made once, so async costs nothing.
import { calculateJwkThumbprint, SignJWT, type JWK, type JWTPayload } from 'jose'

export const ID_TOKEN_ALG = 'ES256'

export interface SigningKey {
  /** `{ keys: [public JWK with kid, alg, use] }`: no private member ever. */
  jwks(): Promise<{ keys: JWK[] }>
  /** A compact JWS of `claims`, headed with `alg`, `kid` and `typ: JWT`. */
  sign(claims: JWTPayload): Promise<string>
}

interface Loaded {
  privateKey: CryptoKey
  publicJwk: JWK
}

/**
 * @example
 * const key = createSigningKey()
 * const idToken = await key.sign({ iss, sub, aud, exp, iat })
 */
export function createSigningKey(share?: (generated: JWK) => Promise<JWK>): SigningKey {
  let loaded: Promise<Loaded> | undefined
  const make = async (): Promise<Loaded> => {
    const generated = await crypto.subtle.generateKey(
      { name: 'ECDSA', namedCurve: 'P-256' },
      share !== undefined,
      ['sign', 'verify'],
    )
    let privateKey = generated.privateKey
    let { kty, crv, x, y } = (await crypto.subtle.exportKey('jwk', generated.publicKey)) as JWK
    if (share) {
      const stored = await share((await crypto.subtle.exportKey('jwk', privateKey)) as JWK)
      ;({ kty, crv, x, y } = stored)
      const { key_ops: _ops, ext: _ext, ...importable } = stored
      privateKey = await crypto.subtle.importKey(
        'jwk',
        importable,
        { name: 'ECDSA', namedCurve: 'P-256' },
        false,
        ['sign'],
      )
    }
    const bare: JWK = { kty: kty!, crv: crv!, x: x!, y: y! }
    const kid = await calculateJwkThumbprint(bare, 'sha256')
    return { privateKey, publicJwk: { ...bare, kid, alg: ID_TOKEN_ALG, use: 'sig' } }
  }
  const load = () => {
    if (!loaded) {
      loaded = make()
      // A database out of reach is asked again at the next call, never remembered as the key.
      loaded.catch(() => (loaded = undefined))
    }
    return loaded
  }
  return {
    async jwks() {
      return { keys: [(await load()).publicJwk] }
    },
    async sign(claims) {
      const { privateKey, publicJwk } = await load()
      return new SignJWT(claims)
        .setProtectedHeader({ alg: ID_TOKEN_ALG, kid: publicJwk.kid!, typ: 'JWT' })
        .sign(privateKey)
    },
  }
}
