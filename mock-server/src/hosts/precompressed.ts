// Built files sent in the encoding the browser takes best, from the `.br` and `.gz` copies `npm run build` writes
// (web/vite.config.ts), so nothing is compressed while answering. `Vary: Accept-Encoding` keeps caches from
// handing brotli bytes to a client that asked for none.
import { createReadStream, statSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { extname, join, resolve, sep } from 'node:path'
import { contentType } from 'mime-types'

export type Encoding = 'br' | 'gzip'

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' }

/**
 * The encoding to send, of those the file has, by Accept-Encoding (RFC 9110: a q of 0 refuses one; brotli wins a
 * tie); null for the file as it is.
 * @example pickEncoding('gzip, deflate, br', ['br', 'gzip']) // 'br'
 * @example pickEncoding('br;q=0, gzip', ['br', 'gzip']) // 'gzip'
 */
export function pickEncoding(
  acceptEncoding: string | undefined,
  available: readonly Encoding[],
): Encoding | null {
  const weights = new Map<string, number>()
  for (const part of (acceptEncoding ?? '').split(',')) {
    const [rawToken, ...params] = part.toLowerCase().split(';')
    const token = rawToken?.trim()
    if (!token) continue
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined)
    weights.set(token, q === undefined ? 1 : Number(q))
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get('*') ?? 0
  let best: Encoding | null = null
  for (const encoding of available) {
    const weight = weightOf(encoding)
    if (weight > 0 && (best === null || weight > weightOf(best))) best = encoding
  }
  return best
}

/** The size of a regular file, or null when there is none at `path`. */
function fileSize(path: string): number | null {
  const stats = statSync(path, { throwIfNoEntry: false })
  return stats?.isFile() ? stats.size : null
}

/**
 * Sends `root` + `path` (already decoded and normalized) in the best encoding it has a copy in, with `headers`;
 * returns false, sending nothing, when the file has no compressed copy (the static sender then serves it as it is).
 */
export function sendPrecompressed(
  request: IncomingMessage,
  response: ServerResponse,
  root: string,
  path: string,
  headers: Record<string, string>,
): boolean {
  const base = resolve(root)
  const file = resolve(join(base, path))
  const size = file.startsWith(base + sep) ? fileSize(file) : null
  if (size === null) return false
  // One look at each copy: its size is what Content-Length says when it is the one sent.
  const copies = new Map<Encoding, number>()
  for (const encoding of Object.keys(SUFFIX) as Encoding[]) {
    const copySize = fileSize(file + SUFFIX[encoding])
    if (copySize !== null) copies.set(encoding, copySize)
  }
  if (copies.size === 0) return false
  const encoding = pickEncoding(request.headers['accept-encoding'], [...copies.keys()])
  const sent = encoding ? file + SUFFIX[encoding] : file
  for (const name in headers) response.setHeader(name, headers[name]!)
  response.setHeader('vary', 'Accept-Encoding')
  // The type of the file itself, never of its copy, as the static sender names it.
  response.setHeader('content-type', contentType(extname(file)) || 'application/octet-stream')
  if (encoding) response.setHeader('content-encoding', encoding)
  response.setHeader('content-length', String(encoding ? copies.get(encoding)! : size))
  if (request.method === 'HEAD') {
    response.end()
    return true
  }
  createReadStream(sent)
    .on('error', () => response.destroy())
    .pipe(response)
  return true
}
