// The --cors-origin values as main.ts reads them (cli/cli-values.ts): normalized as browsers write Origin, or refused.
import { describe, expect, test } from 'vitest'
import { parseCorsOrigins, parseLifetime } from './cli-values.ts'

describe('--cors-origin values', () => {
  test('repeated and comma lists, normalized as browsers write Origin, each once', () => {
    expect(
      parseCorsOrigins([
        'https://App.Example:443, http://127.0.0.1:5173',
        'http://localhost:80',
        'https://app.example',
      ]),
    ).toEqual(['https://app.example', 'http://127.0.0.1:5173', 'http://localhost'])
  })

  test('an IPv6 origin is kept with its brackets', () => {
    expect(parseCorsOrigins(['http://[::1]:5173'])).toEqual(['http://[::1]:5173'])
  })

  test.each([
    ['*', 'a wildcard cannot go with credentials'],
    ['https://*.example', 'a wildcard cannot go with credentials'],
    ['app.example', 'it is no URL'],
    ['', 'it is no URL'],
    ['https://app.example/', 'no path'],
    ['https://app.example/app', 'no path'],
    ['https://app.example?x=1', 'no path, query or fragment'],
    ['ftp://app.example', 'only http and https'],
    ['null', 'it is no URL'],
    ['https://user:pw@app.example', 'no user or password'],
  ])('%j is refused: %s', (value, why) => {
    expect(() => parseCorsOrigins([value])).toThrow(
      new RegExp(`^Failed to start: --cors-origin takes origins like .*${why.replace(/[?*]/g, '\\$&')}`),
    )
  })
})

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
})
