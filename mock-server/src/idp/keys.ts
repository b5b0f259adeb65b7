// The OpenID provider's signing key: one ES256 key pair for the life of the process, its `kid` the RFC 7638
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
export function createSigningKey(): SigningKey {
  let loaded: Promise<Loaded> | undefined
  const load = () =>
    (loaded ??= (async () => {
      const { privateKey, publicKey } = await crypto.subtle.generateKey(
        { name: 'ECDSA', namedCurve: 'P-256' },
        false,
        ['sign', 'verify'],
      )
      const { kty, crv, x, y } = (await crypto.subtle.exportKey('jwk', publicKey)) as JWK
      const bare: JWK = { kty: kty!, crv: crv!, x: x!, y: y! }
      const kid = await calculateJwkThumbprint(bare, 'sha256')
      return { privateKey, publicJwk: { ...bare, kid, alg: ID_TOKEN_ALG, use: 'sig' } }
    })())
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
