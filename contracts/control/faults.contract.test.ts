// Injected faults on every product operation. A thrown handler gives a 500, never a crash or a hang.
import { describe, expect, test } from 'vitest'
import type { components } from '#api/control.gen.ts'
import { arm, bearer, createTestServer, signUp, type TestServer } from '#contracts/fixtures.ts'
import { ServiceUnavailableError, UNAVAILABLE_RETRY_AFTER_S } from '#mock-server/shared/unavailable.ts'

type Call = (server: TestServer, token: string) => ReturnType<TestServer['api']['get']>
type FaultyOperation = NonNullable<components['schemas']['ArmServerError']['operation']>

const OPERATIONS: readonly [FaultyOperation, Call][] = [
  ['getSession', (s) => s.api.get('/api/_auth/session')],
  ['deleteSession', (s) => s.api.delete('/api/_auth/session')],
  ['refreshToken', (s) => s.api.post('/api/refresh_token').send({ refresh_token: 'x' })],
  ['login', (s) => s.api.post('/api/auth/login').send({ email: 'ada@example.com', password: 'x' })],
  [
    'signup',
    (s) =>
      s.api
        .post('/api/auth/signup')
        .send({ name: 'n', email: 'n@example.test', password: 'a long enough passphrase' }),
  ],
  ['sendOtp', (s) => s.api.post('/api/auth/otp/send').send({ email: 'n@example.test', purpose: 'login' })],
  [
    'verifyOtp',
    (s) =>
      s.api.post('/api/auth/otp/verify').send({ email: 'n@example.test', code: '123456', purpose: 'login' }),
  ],
  ['forgotPassword', (s) => s.api.post('/api/auth/forgot').send({ email: 'n@example.test' })],
  [
    'updatePassword',
    (s) =>
      s.api
        .post('/api/auth/update_password')
        .send({ reset_token: 'x', password: 'a long enough passphrase' }),
  ],
  ['authorizeExternal', (s) => s.api.get('/api/auth/external/authorize?state=abcdefghijklmnop')],
  ['exchangeCallback', (s) => s.api.post('/api/auth/callback').send({ code: 'x', state: 'y' })],
  ['getMe', (s, token) => s.api.get('/api/me').set(bearer(token))],
  ['getProcess', (s, token) => s.api.get('/api/process').set(bearer(token))],
  [
    'updateProcessStep',
    (s, token) => s.api.patch('/api/process/steps/x').set(bearer(token)).send({ status: 'done' }),
  ],
  ['getHelp', (s, token) => s.api.get('/api/help').set(bearer(token))],
]

describe('server-error on every operation', () => {
  test.each(OPERATIONS)(
    '%s answers the armed status in the documented shape, once',
    async (operation, call) => {
      const server = await createTestServer()
      const account = await signUp(server.api)
      await arm(server.api, { name: 'server-error', operation })
      const res = await call(server, account.token).expect(503)
      expect(res.body).toEqual({ error: 'server_error', message: 'The server is temporarily unavailable.' })
      expect((await call(server, account.token)).status).not.toBe(503)
    },
  )
})

/** A sign-in while the store's account lookup (product/storage/port.ts) fails as `lookup` does; then it is back. */
async function signInWhileLookupFails(server: TestServer, lookup: () => never | Promise<never>) {
  const users = server.app.core.ops.domain.store.users
  const original = users.byEmail.bind(users)
  users.byEmail = lookup
  try {
    return await server.api.post('/api/auth/login').send({ email: 'ada@example.com', password: 'x' })
  } finally {
    users.byEmail = original
  }
}

describe('faults', () => {
  test('the armed status and message are used', async () => {
    const server = await createTestServer()
    await arm(server.api, { name: 'server-error', status: 500, message: 'Database on fire.' })
    const res = await server.api.get('/api/_auth/session').expect(500)
    expect(res.body).toEqual({ error: 'server_error', message: 'Database on fire.' })
  })

  test('a handler that throws answers 500 in the documented shape and logs the fault', async () => {
    const lines: string[] = []
    const errors: string[] = []
    const server = await createTestServer({
      log: (line) => lines.push(line),
      logError: (line) => errors.push(line),
    })
    const res = await signInWhileLookupFails(server, () => {
      throw new Error('disk unplugged')
    })
    expect(res.status).toBe(500)
    expect(res.body).toEqual({ error: 'internal_error', message: 'Something went wrong on our side.' })
    // The request log has the call; the error log one line with the operation and the fault.
    expect(lines.some((line) => line.startsWith('POST /api/auth/login 500 '))).toBe(true)
    expect(errors).toEqual([
      expect.stringMatching(/^POST \/api\/auth\/login 500 in login: Error: disk unplugged/),
    ])
    await server.api
      .post('/api/auth/login')
      .send({ email: 'ada@example.com', password: 'analytical-engine-1843' })
      .expect(200)
  })

  test('a database out of reach answers 503 service_unavailable with Retry-After, and the next call is served', async () => {
    const errors: string[] = []
    const server = await createTestServer({ logError: (line) => errors.push(line) })
    // What compose/sql-drivers.ts throws when PostgreSQL is gone (compose/database-outage.test.ts takes it away).
    const res = await signInWhileLookupFails(server, () =>
      Promise.reject(new ServiceUnavailableError('The database is out of reach (ECONNREFUSED).')),
    )
    expect(res.status).toBe(503)
    expect(res.body).toEqual({
      error: 'service_unavailable',
      message: 'The service is unavailable. Try again shortly.',
    })
    expect(res.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_AFTER_S))
    expect(errors).toEqual([
      expect.stringMatching(/^POST \/api\/auth\/login 503 in login: ServiceUnavailableError: The database/),
    ])
    await server.api
      .post('/api/auth/login')
      .send({ email: 'ada@example.com', password: 'analytical-engine-1843' })
      .expect(200)
  })
})
