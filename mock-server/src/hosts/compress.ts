// Compressed JSON (docs/decisions/013-mock-server-speed.md): small answers go as they are, since compressing
// costs more CPU than it saves. An answer with a credential or a cookie is never compressed: next to text a
// cross-site page controls, its length would leak the secret (BREACH).
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import { pickEncoding } from './precompressed.ts'

/** About one TCP segment: below it, compressing saves no round trip. */
export const COMPRESS_MIN_BYTES = 1024

/** Brotli's quality 4 and gzip's level 6 (its default): fast enough per answer, most of the gain. */
const BROTLI_QUALITY = 4

/** A JSON key whose value is a credential in either document's answers (token, access_token, reset_token, code...). */
const CARRIES_CREDENTIAL = /"[a-z_]*(?:token|code|secret|password)"\s*:/i

export interface Encoded {
  body: string | Uint8Array | undefined
  /** Headers to add: `content-encoding` when compressed, `vary` whenever the answer could have been. */
  headers: Record<string, string>
}

/**
 * Text and bytes alike (a replayed image, docs/decisions/017-har-record-and-replay.md). Bytes are searched for a
 * credential too, since a replayed JSON answer may come as bytes.
 *
 * @example
 * encodeBody('br, gzip', 'GET', big, 'Origin') // { body: <brotli bytes>, headers: { 'content-encoding': 'br', vary: 'Origin, Accept-Encoding' } }
 * encodeBody(undefined, 'GET', big, undefined) // { body: big, headers: { vary: 'Accept-Encoding' } }
 * encodeBody('br', 'GET', '{}', undefined)     // { body: '{}', headers: {} }
 * encodeBody('br', 'GET', `{"code":"123456",${padding}}`, undefined) // raw: it carries a credential
 * encodeBody('br', 'GET', pngBytes, undefined) // { body: pngBytes, headers: { vary: 'Accept-Encoding' } }: no smaller
 */
export function encodeBody(
  acceptEncoding: string | undefined,
  method: string,
  body: string | Uint8Array | undefined,
  vary: string | string[] | undefined,
  setsCookie = false,
): Encoded {
  // Bytes are at least as many as UTF-16 units: a short string is under the floor without being measured.
  if (body === undefined || body.length * 3 < COMPRESS_MIN_BYTES) return { body, headers: {} }
  const text = typeof body === 'string'
  const size = text ? Buffer.byteLength(body) : body.byteLength
  if (size < COMPRESS_MIN_BYTES || setsCookie || CARRIES_CREDENTIAL.test(text ? body : asLatin1(body)))
    return { body, headers: {} }
  const varies =
    vary === undefined || vary.length === 0 ? 'Accept-Encoding' : `${String(vary)}, Accept-Encoding`
  const encoding = method === 'HEAD' ? null : pickEncoding(acceptEncoding, ['br', 'gzip'])
  if (!encoding) return { body, headers: { vary: varies } }
  const mode = text ? constants.BROTLI_MODE_TEXT : constants.BROTLI_MODE_GENERIC
  const compressed =
    encoding === 'br'
      ? brotliCompressSync(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_MODE]: mode,
            [constants.BROTLI_PARAM_SIZE_HINT]: size,
          },
        })
      : gzipSync(body)
  // An image or an archive is compressed already: compressing it again only adds a few bytes.
  if (compressed.byteLength >= size) return { body, headers: { vary: varies } }
  return { body: compressed, headers: { 'content-encoding': encoding, vary: varies } }
}

/** The bytes as one character each: the credential pattern is ASCII, so it matches where the bytes spell it. */
function asLatin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
}
