import { expect, test } from 'vitest'
import { isLoopbackUrl } from './loopback.ts'

test('this machine is localhost, any address of 127.0.0.0/8 and [::1]; nothing that only looks like them', () => {
  for (const url of [
    'http://localhost:9000/idp',
    'http://127.0.0.1/',
    'http://127.0.0.2:9000/',
    'http://[::1]:4010/',
  ])
    expect(isLoopbackUrl(new URL(url)), url).toBe(true)
  for (const url of [
    'http://localhost.evil.example/',
    'http://127.0.0.1.evil.example/',
    'http://128.0.0.1/',
    'http://[::2]/',
    'http://id.example/',
  ])
    expect(isLoopbackUrl(new URL(url)), url).toBe(false)
})
