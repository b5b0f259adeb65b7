// Property-based bad input: any body gets a documented 4xx, never a 500 or a hang.
// And, where /__mock can read it, no state changes (contracts/support/server-state.ts).
import fc from 'fast-check'
import { beforeAll, describe, expect, test } from 'vitest'
import { createTestServer, requireControl, type TestServer } from '#contracts/fixtures.ts'
import { createStateReader, type StateReader } from '#contracts/support/server-state.ts'

const BODY_OPERATIONS = [
  ['POST', '/api/refresh_token'],
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/signup'],
  ['POST', '/api/auth/otp/send'],
  ['POST', '/api/auth/otp/verify'],
  ['POST', '/api/auth/forgot'],
  ['POST', '/api/auth/update_password'],
  ['POST', '/api/auth/callback'],
  ['POST', '/__mock/clock'],
  ['POST', '/__mock/scenarios'],
] as const

/** JSON values that are never a valid body: wrong types, missing and unknown fields, junk. */
const badJson = fc.oneof(
  fc.jsonValue().filter((value) => typeof value !== 'object' || value === null || Array.isArray(value)),
  fc
    .dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 6 })
    .map((record) => ({
      ...record,
      ['unexpected field']: true,
    })),
)

/** Any text as a body, under a type the operation takes, another, or none. */
const badBytes = fc.tuple(
  fc.string({ maxLength: 200 }),
  fc.constantFrom('application/json', 'text/plain', ''),
)

let server: TestServer
let reader: StateReader
beforeAll(async () => {
  server = await createTestServer()
  reader = createStateReader(server)
})

/** A call of /__mock needs a target that has it. */
const requireItsSurface = (path: string) => {
  if (path.startsWith('/__mock/')) requireControl(server.api)
}

describe('bad input always gets a documented 4xx', () => {
  test.each(BODY_OPERATIONS)('%s %s with arbitrary JSON is a 400 validation_failed', async (method, path) => {
    requireItsSurface(path)
    await fc.assert(
      fc.asyncProperty(badJson, async (body) => {
        const res = await server.api
          .request(method, path)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body))
        expect(res.status).toBe(400)
        expect(res.body.error).toBe('validation_failed')
      }),
      { numRuns: 40 },
    )
  })

  test.each(BODY_OPERATIONS)('%s %s with arbitrary bytes is a 4xx', async (method, path) => {
    requireItsSurface(path)
    await fc.assert(
      fc.asyncProperty(badBytes, async ([text, type]) => {
        const res = await server.api.request(method, path).set('Content-Type', type).send(text)
        expect(res.status).toBeGreaterThanOrEqual(400)
        expect(res.status).toBeLessThan(500)
      }),
      { numRuns: 30 },
    )
  })
})

describe('bad input never changes state', () => {
  // The state is read through /__mock: without it, the answers alone are checked (above).
  test.each(BODY_OPERATIONS)(
    '%s %s: neither arbitrary JSON nor arbitrary bytes change it',
    async (method, path) => {
      requireControl(server.api)
      const before = await reader.state()
      for (const body of fc.sample(badJson, 20))
        await server.api
          .request(method, path)
          .set('Content-Type', 'application/json')
          .send(JSON.stringify(body))
      for (const [text, type] of fc.sample(badBytes, 20))
        await server.api.request(method, path).set('Content-Type', type).send(text)
      expect(await reader.state()).toBe(before)
    },
  )
})
