import { expect, test } from 'vitest'
import { getLoginPath, getSafeRedirect } from './safe-redirect.ts'

const rows = [
  { value: '/process', result: '/process' },
  { value: '/process?tab=2#top', result: '/process?tab=2#top' },
  { value: '/help/../process', result: '/process' },
  { value: '/', result: '/' },
  { value: null, result: '/' },
  { value: '', result: '/' },
  { value: 'process', result: '/' },
  { value: '//evil.example/x', result: '/' },
  { value: '/\\evil.example', result: '/' },
  { value: '/x\\y', result: '/' },
  { value: 'https://evil.example/', result: '/' },
  { value: 'javascript:alert(1)', result: '/' },
  { value: '/\tevil', result: '/' },
  { value: '/%2F%2Fevil.example', result: '/%2F%2Fevil.example' },
  { value: '/.//evil.example', result: '/' },
  { value: '/x/..//evil.example', result: '/' },
  { value: '/./process', result: '/process' },
] as const

test.each(rows)('getSafeRedirect($value) -> $result', ({ value, result }) => {
  expect(getSafeRedirect(value)).toBe(result)
})

test('the login path carries the encoded redirect', () => {
  expect(getLoginPath('/process?tab=2')).toBe('/login?redirect=%2Fprocess%3Ftab%3D2')
})
