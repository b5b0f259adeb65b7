import { expect, test } from 'vitest'
import { createHealth, isProbePath, type ReadinessProbe } from './index.ts'

const call = { query: {}, path: {}, body: undefined } as never

test('a probe that does not answer in time counts as timeout, and the others still answer', async () => {
  const never: ReadinessProbe = { name: 'store', check: () => new Promise<boolean>(() => undefined) }
  const up: ReadinessProbe = { name: 'mail', check: async () => true }
  const health = createHealth({ probes: [never, up], probeTimeoutMs: 20 })
  const answer = await health.operations.getReadiness(call)
  expect(answer).toMatchObject({ status: 503, body: { checks: { store: 'timeout', mail: 'ok' } } })
})

test('a probe that throws at once counts as unreachable, not as a fault of the call', async () => {
  const broken: ReadinessProbe = {
    name: 'store',
    check: () => {
      throw new Error('no pool')
    },
  }
  const answer = await createHealth({ probes: [broken] }).operations.getReadiness(call)
  expect(answer).toMatchObject({ status: 503, body: { checks: { store: 'unreachable' } } })
})

test.each([
  [['store', 'store'], 'store'],
  [['server'], 'server'],
])('refuses the probe names %j (%s is taken)', (names, taken) => {
  const probes = names.map((name) => ({ name, check: async () => true }))
  expect(() => createHealth({ probes })).toThrow(
    `Failed to compose readiness: the probe name ${taken} is taken; give each probe its own.`,
  )
})

test.each([
  ['/healthz', true],
  ['/readyz?verbose=1', true],
  ['/healthz/', false],
  ['/readyzz', false],
  ['/api/healthz', false],
])('isProbePath(%s) is %s', (url, expected) => {
  expect(isProbePath(url)).toBe(expected)
})
