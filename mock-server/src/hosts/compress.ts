// Compressed JSON (docs/decisions/013-mock-server-speed.md): an answer of COMPRESS_MIN_BYTES or more goes out in
// brotli or gzip, whichever the client's Accept-Encoding takes best (hosts/precompressed.ts picks), with `Vary:
// Accept-Encoding`; a smaller one goes as it is, where compressing would cost more CPU than the bytes it saves. A
// client that sends no Accept-Encoding gets the bytes as they are. An answer that carries a credential (a token, a
// code, a password field) or sets a cookie is never compressed, whatever its size: compressing a secret beside text
// a cross-site page can steer lets that page read the secret from the answer's length (BREACH).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { pickEncoding } from './precompressed.ts'

/**
 * About one TCP segment (1,460 bytes on Ethernet, less with options): below it, compressing saves no round trip.
 * The same floor as many servers' own (nginx's `gzip_min_length` is often set to 1000 or so).
 */
export const COMPRESS_MIN_BYTES = 1024

/** Brotli's quality 4 and gzip's level 6 (its default): fast enough per answer, most of the gain. */
const BROTLI = {
  params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT },
}

/** A JSON key whose value is a credential in either document's answers (token, access_token, reset_token, code...). */
const CARRIES_CREDENTIAL = /"[a-z_]*(?:token|code|secret|password)"\s*:/i

export interface Encoded {
  body: string | Buffer | undefined
  /** Headers to add: `content-encoding` when compressed, `vary` whenever the answer could have been. */
  headers: Record<string, string>
}

/**
 * @example
 * encodeBody('br, gzip', 'GET', big, 'Origin') // { body: <brotli bytes>, headers: { 'content-encoding': 'br', vary: 'Origin, Accept-Encoding' } }
 * encodeBody(undefined, 'GET', big, undefined) // { body: big, headers: { vary: 'Accept-Encoding' } }
 * encodeBody('br', 'GET', '{}', undefined)     // { body: '{}', headers: {} }
 * encodeBody('br', 'GET', `{"code":"123456",${padding}}`, undefined) // raw: it carries a credential
 */
export function encodeBody(
  acceptEncoding: string | undefined,
  method: string,
  body: string | undefined,
  vary: string | string[] | undefined,
  setsCookie = false,
): Encoded {
  // Bytes are at least as many as UTF-16 units: a short string is under the floor without being measured.
  if (body === undefined || body.length * 3 < COMPRESS_MIN_BYTES) return { body, headers: {} }
  const size = Buffer.byteLength(body)
  if (size < COMPRESS_MIN_BYTES || setsCookie || CARRIES_CREDENTIAL.test(body)) return { body, headers: {} }
  const varies =
    vary === undefined || vary.length === 0 ? 'Accept-Encoding' : `${String(vary)}, Accept-Encoding`
  const encoding = method === 'HEAD' ? null : pickEncoding(acceptEncoding, ['br', 'gzip'])
  if (!encoding) return { body, headers: { vary: varies } }
  const compressed =
    encoding === 'br'
      ? brotliCompressSync(body, {
          params: { ...BROTLI.params, [constants.BROTLI_PARAM_SIZE_HINT]: size },
        })
      : gzipSync(body)
  return { body: compressed, headers: { 'content-encoding': encoding, vary: varies } }
}
