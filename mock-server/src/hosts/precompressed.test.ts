import { expect, test } from 'vitest'
import { pickEncoding } from './precompressed.ts'

test.each([
  ['gzip, deflate, br', ['br', 'gzip'], 'br'],
  ['gzip, deflate', ['br', 'gzip'], 'gzip'],
  ['br;q=0, gzip', ['br', 'gzip'], 'gzip'],
  ['gzip;q=1, br;q=0.5', ['br', 'gzip'], 'gzip'],
  ['*', ['br', 'gzip'], 'br'],
  ['*;q=0, identity', ['br', 'gzip'], null],
  ['identity', ['br', 'gzip'], null],
  ['', ['br', 'gzip'], null],
  [undefined, ['br', 'gzip'], null],
  ['BR', ['gzip'], null],
  ['GZIP ; q=0.8', ['br', 'gzip'], 'gzip'],
] as const)('Accept-Encoding %j with copies %j sends %j', (accept, available, expected) => {
  expect(pickEncoding(accept, available)).toBe(expected)
})
