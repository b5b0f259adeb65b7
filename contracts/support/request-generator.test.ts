import { expect, test } from 'vitest'
import { climbsAboveRoot } from '#contracts/support/request-generator.ts'

// nginx answers such a path with an HTML 400 of its own, so behind a proxy the generator must not send one.
test('climbsAboveRoot: more .. segments than segments before them, once decoded, climbs; fewer does not', () => {
  expect(climbsAboveRoot('/builds/meta/..%2F..%2F..%2Fetc%2Fpasswd.json')).toBe(true)
  expect(climbsAboveRoot('/api/../../x')).toBe(true)
  expect(climbsAboveRoot('/builds/meta/%2e%2e')).toBe(false)
  expect(climbsAboveRoot('/builds/meta/..%2F..%2Fx.json')).toBe(false)
  expect(climbsAboveRoot('/builds/meta/.%2F.%2F.json')).toBe(false)
  expect(climbsAboveRoot('/builds/meta/%ZZ')).toBe(false)
})
