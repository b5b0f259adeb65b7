import { expect, test } from 'vitest'
import { PATHS } from '../lib/config/paths.ts'
import { SIGNED_IN_PATHS, signInFirst } from './require-sign-in.tsx'

const at = (pathname: string, search = '', hash = '') => ({ pathname, search, hash })

test('a signed-in route opened with no tokens: /login with the way back, before anything renders', () => {
  expect(signInFirst(at('/'))).toBe('/login?redirect=%2F')
  expect(signInFirst(at('/help', '?q=code', '#top'))).toBe('/login?redirect=%2Fhelp%3Fq%3Dcode%23top')
  // Matched as the router matches: any case, a trailing slash.
  expect(signInFirst(at('/Process/'))).toBe('/login?redirect=%2FProcess%2F')
})

test('every other route, and a path no route has, is left to render', () => {
  const others = Object.values(PATHS).filter((path) => !(SIGNED_IN_PATHS as readonly string[]).includes(path))
  expect(others.length).toBeGreaterThan(0)
  for (const path of [...others, '/process/extra', '/no/such/page'])
    expect(signInFirst(at(path)), path).toBeNull()
})
