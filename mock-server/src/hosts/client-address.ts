// The client's address as the host counts it, read from the trusted hop of X-Forwarded-For exactly as Express's
// `trust proxy` (proxy-addr) read it, so the per-client limits count the same clients they always did.
import type { IncomingMessage } from 'node:http'

/**
 * The client as Express reads it with `trust proxy` set to a number of hops (proxy-addr): the socket's address, then
 * X-Forwarded-For's entries from the right; the entry `hops` along, or the left-most when there are fewer.
 */
export function clientAddress(request: IncomingMessage, hops: number): string {
  const socket = request.socket.remoteAddress ?? 'unknown'
  const header = request.headers['x-forwarded-for']
  if (hops <= 0 || !header) return socket
  const entries = forwardedEntries(Array.isArray(header) ? header.join(', ') : header)
  return hops <= entries.length ? entries[hops - 1]! : (entries[entries.length - 1] ?? socket)
}

/** X-Forwarded-For's addresses, right to left, as proxy-addr splits them (commas, blanks trimmed, empties skipped). */
function forwardedEntries(header: string): string[] {
  const list: string[] = []
  let end = header.length
  let start = header.length
  for (let index = header.length - 1; index >= 0; index -= 1) {
    const code = header.charCodeAt(index)
    if (code === 0x20) {
      if (start === end) start = end = index
    } else if (code === 0x2c) {
      if (start !== end) list.push(header.substring(start, end))
      start = end = index
    } else {
      start = index
    }
  }
  if (start !== end) list.push(header.substring(start, end))
  return list
}
