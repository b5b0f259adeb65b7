// The per-client key: IPv4 as is, IPv6 by its /64.
import { expect, test } from 'vitest'
import { toClientKey } from './client-key.ts'

test.each([
  ['192.0.2.7', '192.0.2.7'],
  ['::ffff:192.0.2.7', '192.0.2.7'],
  ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
  ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
  ['2001:DB8:1:2:aaaa:bbbb:cccc:dddd', '2001:db8:1:2::/64'],
  ['2001:db8::1', '2001:db8:0:0::/64'],
  ['::1', '0:0:0:0::/64'],
  ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ['2001:db8:1:2::192.0.2.1', '2001:db8:1:2::/64'],
  ['unknown', 'unknown'],
] as const)('%s counts as %s', (address, key) => expect(toClientKey(address)).toBe(key))

test('two addresses of one /64 share a key; the next /64 does not', () => {
  expect(toClientKey('2001:db8:1:2::a')).toBe(toClientKey('2001:db8:1:2:ffff::b'))
  expect(toClientKey('2001:db8:1:3::a')).not.toBe(toClientKey('2001:db8:1:2::a'))
})
