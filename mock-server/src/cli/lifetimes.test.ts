// --access-ttl and --refresh-ttl as main.ts reads them (cli/lifetimes.ts): taken between their bounds, or refused
// with one line naming the flag, the value and the bound; and the start banner's note of a lifetime not the default.
import { describe, expect, test } from 'vitest'
import {
  ACCESS_TOKEN_TTL_MS,
  MAX_ACCESS_TOKEN_TTL_MS,
  MAX_REFRESH_TOKEN_TTL_MS,
  REFRESH_TOKEN_TTL_MS,
} from '../shared/constants.ts'
import { formatDuration, lifetimeNotes, parseLifetime } from './lifetimes.ts'

describe('--access-ttl and --refresh-ttl', () => {
  test('a lifetime of a second or more is taken, in milliseconds', () => {
    expect(parseLifetime('1s', '--access-ttl')).toBe(1000)
    expect(parseLifetime('15m', '--refresh-ttl')).toBe(900_000)
  })

  test.each(['0', '999', '500ms', '0s'])('%s is refused: every token would be born expired', (value) => {
    expect(() => parseLifetime(value, '--access-ttl')).toThrow(
      /^Failed to start: --access-ttl must be at least 1s: a shorter lifetime issues tokens already expired\.$/,
    )
  })

  test('a value that is no duration is refused naming the flag', () => {
    expect(() => parseLifetime('soon', '--refresh-ttl')).toThrow(
      /^Failed to start: --refresh-ttl "soon": use e\.g\. 500ms/,
    )
  })

  test('the bounds: an access token lives an hour at most, a refresh family 30 days', () => {
    expect(MAX_ACCESS_TOKEN_TTL_MS).toBe(60 * 60_000)
    expect(MAX_REFRESH_TOKEN_TTL_MS).toBe(30 * 24 * 60 * 60_000)
    // The defaults lie within them, so a start without the flags is never refused.
    expect(ACCESS_TOKEN_TTL_MS).toBeLessThanOrEqual(MAX_ACCESS_TOKEN_TTL_MS)
    expect(REFRESH_TOKEN_TTL_MS).toBeLessThanOrEqual(MAX_REFRESH_TOKEN_TTL_MS)
  })

  test.each([
    ['--access-ttl', '1h', MAX_ACCESS_TOKEN_TTL_MS],
    ['--access-ttl', '60m', MAX_ACCESS_TOKEN_TTL_MS],
    ['--access-ttl', '3600000', MAX_ACCESS_TOKEN_TTL_MS],
    ['--refresh-ttl', '30d', MAX_REFRESH_TOKEN_TTL_MS],
    ['--refresh-ttl', '720h', MAX_REFRESH_TOKEN_TTL_MS],
  ] as const)('%s %s, the bound itself, is taken', (flag, value, ms) => {
    expect(parseLifetime(value, flag)).toBe(ms)
  })

  test.each([
    ['2h', '2h'],
    ['61m', '61m'],
    ['3600001', '3600001ms'],
    ['1.5h', '90m'],
  ])('--access-ttl %s is refused: above 1h, an access token outlives a log-out too long', (value, shown) => {
    expect(() => parseLifetime(value, '--access-ttl')).toThrow(
      new RegExp(
        `^Failed to start: --access-ttl must be at most 1h, not ${shown}: an access token cannot be revoked before it expires\\.$`,
      ),
    )
  })

  test.each([
    ['31d', '31d'],
    ['30.5d', '732h'],
    ['2592000001', '2592000001ms'],
  ])('--refresh-ttl %s is refused: above 30d', (value, shown) => {
    expect(() => parseLifetime(value, '--refresh-ttl')).toThrow(
      new RegExp(
        `^Failed to start: --refresh-ttl must be at most 30d, not ${shown}: a session, and a stolen session cookie with it, would last that long\\.$`,
      ),
    )
  })
})

describe('durations as the flags write them', () => {
  test.each([
    [1_000, '1s'],
    [30_000, '30s'],
    [90_000, '90s'],
    [15 * 60_000, '15m'],
    [60 * 60_000, '1h'],
    [24 * 60 * 60_000, '1d'],
    [1_500, '1500ms'],
    [0, '0ms'],
  ])('%i ms is %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })
})

describe('the start banner', () => {
  test('says nothing of lifetimes at their defaults, flags given or not', () => {
    expect(lifetimeNotes({})).toEqual([])
    expect(
      lifetimeNotes({ accessTokenTtlMs: ACCESS_TOKEN_TTL_MS, refreshTokenTtlMs: REFRESH_TOKEN_TTL_MS }),
    ).toEqual([])
  })

  test('names each lifetime that is not the default', () => {
    expect(lifetimeNotes({ accessTokenTtlMs: 30_000 })).toEqual(['access tokens live 30s'])
    expect(lifetimeNotes({ accessTokenTtlMs: 30_000, refreshTokenTtlMs: 2 * 60 * 60_000 })).toEqual([
      'access tokens live 30s',
      'refresh families live 2h',
    ])
  })
})
