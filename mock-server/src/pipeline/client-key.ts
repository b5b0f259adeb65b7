// Pure: the key the per-client limits count a client under; imports no Node API (isIP is shared/is-ip.ts).
// An IPv6 address counts by its /64, since one host usually holds a whole /64.
import { isIP } from '../shared/is-ip.ts'

/**
 * @example
 * toClientKey('2001:db8:1:2:aaaa::1') // '2001:db8:1:2::/64'
 * toClientKey('::ffff:192.0.2.7')     // '192.0.2.7'
 * toClientKey('192.0.2.7')            // '192.0.2.7'
 */
export function toClientKey(address: string): string {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '')
  if (isIP(bare) !== 6) return bare
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare)
  if (mapped) return mapped[1]!
  const groups = expandIpv6(bare)
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`
}

/** The eight groups of a valid IPv6 address (an embedded IPv4 tail becomes two groups). */
function expandIpv6(address: string): string[] {
  const withoutV4 = address.replace(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/, (_all, a, b, c, d) => {
    const hex = (high: string, low: string) => ((Number(high) << 8) | Number(low)).toString(16)
    return `${hex(a, b)}:${hex(c, d)}`
  })
  const [head = '', tail] = withoutV4.toLowerCase().split('::')
  const left = head === '' ? [] : head.split(':')
  if (tail === undefined) return left
  const right = tail === '' ? [] : tail.split(':')
  return [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
}
