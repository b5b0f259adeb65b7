// The pipeline's isIP stands in for node:net's: it must answer as Node does.
import { isIP as nodeIsIP } from 'node:net'
import { expect, test } from 'vitest'
import { isIP } from './is-ip.ts'

test('isIP as Node', () => {
  for (const input of [
    '127.0.0.1',
    '::1',
    '::ffff:127.0.0.1',
    'fe80::1',
    '256.1.1.1',
    'localhost',
    '',
    '1.2.3',
    '::',
    '1.2.3.04',
    '::1.2.3.04',
    'fe80::1%eth0',
    'fe80::1%',
    'fe80::1%a%b',
    '1:2:3:4:5:6:7:8',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    '2001:db8::/64',
    '[::1]',
    ' 127.0.0.1',
  ])
    expect(isIP(input), input).toBe(nodeIsIP(input))
})
