// The one reading of a static path every rule of the web host applies to (docs/security/hardening.md, "Smaller
// rules"): decoded once and normalized, so `/assets/x.js%2Emap` is `/assets/x.js.map` to every rule and to the
// file system alike.
import { posix } from 'node:path'

/** An encoded `/`, `\` or NUL would make one segment stand for another path. */
const ENCODED_SEPARATOR = /%(2f|5c|00)/i

/** The decoded, normalized path, or null when it cannot be decoded or hides a separator or a NUL. */
export function decodeStaticPath(encoded: string): string | null {
  if (ENCODED_SEPARATOR.test(encoded)) return null
  let decoded: string
  try {
    decoded = decodeURIComponent(encoded)
  } catch {
    return null
  }
  if (decoded.includes('\\') || decoded.includes('\0')) return null
  return posix.normalize(decoded)
}

/** The path written back as a URL path, each segment encoded, so what decodes it next reads `path` again. */
export function encodeStaticPath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/')
}
