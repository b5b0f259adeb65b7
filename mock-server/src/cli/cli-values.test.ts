// The --cors-origin values as main.ts reads them (cli/cli-values.ts): normalized as browsers write Origin, or refused.
import { describe, expect, test } from 'vitest'
import {
  bindsEveryInterface,
  parseCorsOrigins,
  parseHost,
  parseOidc,
  parsePort,
  urlHost,
} from './cli-values.ts'

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

describe('--oidc-issuer', () => {
  test('plain http only to this machine, as the relying party allows it (shared/loopback.ts)', () => {
    for (const issuer of [
      'http://127.0.0.2:9000/idp',
      'http://localhost:9000',
      'http://[::1]:9000',
      'https://id.example',
    ])
      expect(parseOidc(issuer, 'x', undefined)?.issuer, issuer).toBe(issuer)
    expect(() => parseOidc('http://127.0.0.1.evil.example', 'x', undefined)).toThrow(
      'Failed to start: --oidc-issuer must be https (http only on localhost, 127.0.0.0/8 or ::1).',
    )
  })
})

describe('--port and PORT, --host and HOST', () => {
  test.each([
    ['4010', 4010],
    ['0', 0],
    ['65535', 65535],
  ])('port %s is %d', (value, port) => {
    expect(parsePort(value, 'PORT')).toBe(port)
  })

  test.each([
    ['', 'PORT is empty; give a port, or leave it out'],
    ['  ', 'PORT is empty'],
    ['65536', 'PORT takes a port from 0 to 65535, not "65536"'],
    ['-1', 'not "-1"'],
    ['0x10', 'not "0x10"'],
    ['1e3', 'not "1e3"'],
    [' 80', 'not " 80"'],
    ['4010.5', 'not "4010.5"'],
  ])('port %j is refused, never read as another port', (value, message) => {
    expect(() => parsePort(value, 'PORT')).toThrow(message)
  })

  test('an empty host is refused, not bound to every interface', () => {
    expect(() => parseHost('', '--host')).toThrow(
      '--host is empty; give an address, or leave it out (127.0.0.1).',
    )
    expect(() => parseHost(' ', 'HOST')).toThrow('HOST is empty')
    expect(parseHost('::1', 'HOST')).toBe('::1')
    expect(parseHost('[::]', '--host')).toBe('::')
  })
})

test('the addresses a server listens on every interface at', () => {
  for (const address of ['0.0.0.0', '::', '::ffff:0.0.0.0'])
    expect(bindsEveryInterface(address), address).toBe(true)
  for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '10.0.0.1'])
    expect(bindsEveryInterface(address), address).toBe(false)
})

test('a host as a URL writes it: an IPv6 address in brackets', () => {
  expect(urlHost('::')).toBe('[::]')
  expect(urlHost('::1')).toBe('[::1]')
  expect(urlHost('[::1]')).toBe('[::1]')
  expect(urlHost('127.0.0.1')).toBe('127.0.0.1')
})
