// Whether the suite can reach a target from loopback addresses of its own. No vitest and no I/O here: the vitest
// config asks it too, before any test runs.
import { isIPv4 } from 'node:net'

/**
 * Whether requests to `baseUrl` can leave from another loopback address: an IPv4 literal of 127.0.0.0/8. Each
 * check is then a visitor of its own, so a limit it meets is one its own calls reached.
 * @example isLoopbackTarget('http://127.0.0.1:4020') // true
 */
export function isLoopbackTarget(baseUrl: string): boolean {
  const { hostname } = new URL(baseUrl)
  return isIPv4(hostname) && hostname.startsWith('127.')
}
