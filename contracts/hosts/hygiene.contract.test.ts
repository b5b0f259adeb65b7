// What a careful server does on every answer: security headers, no secrets in logs or at rest, and the
// same work for an unknown address as for a known one.
import { expect, test } from 'vitest'
import { createTestServer, readCode, signUp } from '#contracts/fixtures.ts'

test('the security headers are on every answer', async () => {
  const { api } = await createTestServer()
  const res = await api.get('/api/_auth/session').expect(200)
  expect(res.headers['x-content-type-options']).toBe('nosniff')
  expect(res.headers['x-frame-options']).toBe('SAMEORIGIN')
  expect(res.headers['content-security-policy']).toContain("default-src 'self'")
  expect(res.headers['content-security-policy']).toContain("worker-src 'self' blob:")
  expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests')
  expect(res.headers['x-powered-by']).toBeUndefined()
})

test('a 500 leaves one line in the error log, with the operation and without the data it failed on', async () => {
  const errors: string[] = []
  const server = await createTestServer({ logError: (line) => errors.push(line) }) // and no request log
  const password = 'a password the fault quotes'
  // A fault whose message quotes what it failed on, as Node's JSON.parse does.
  server.app.core.ops.domain.hasher.verify = () => {
    throw new SyntaxError(`Unexpected token 'a', "${password}" is not valid JSON`)
  }
  const res = await server.api
    .post('/api/auth/login')
    .send({ email: 'ada@example.com', password })
    .expect(500)
  expect(res.body).toEqual({ error: 'internal_error', message: 'Something went wrong on our side.' })
  expect(errors).toHaveLength(1)
  expect(errors[0]).toMatch(/^POST \/api\/auth\/login 500 in login: SyntaxError: Unexpected token /)
  expect(errors[0]).not.toContain(password)
  expect(errors[0]).not.toContain('\n')
})

test('the request log never holds a token, a password or a code', async () => {
  const lines: string[] = []
  const { api } = await createTestServer({ log: (line) => lines.push(line) })
  const account = await signUp(api)
  await api.post('/api/auth/otp/send').send({ email: account.email, purpose: 'login' }).expect(202)
  const code = await readCode(api, account.email, 'login')
  const refreshed = await api
    .post('/api/refresh_token')
    .send({ refresh_token: account.refreshToken })
    .expect(200)
  await api.get(`/api/me?token=${account.token}`).set('Authorization', `Bearer ${account.token}`).expect(200)
  const log = lines.join('\n')
  expect(lines.length).toBeGreaterThan(5)
  for (const secret of [
    account.token,
    account.refreshToken,
    refreshed.body.refresh_token,
    account.password,
    code,
    account.cookie,
  ]) {
    expect(log).not.toContain(secret)
  }
})

test('refresh tokens, service tokens and cookies are stored hashed', async () => {
  const server = await createTestServer()
  const account = await signUp(server.api)
  const { refreshTokens, sessions } = await server.app.core.ops.domain.store.snapshot()
  const stored = JSON.stringify([refreshTokens, sessions])
  expect(stored).not.toContain(account.refreshToken)
  expect(stored).not.toContain(account.serviceToken)
  expect(stored).not.toContain(account.cookie.split('=')[1])
})

test("a refused sign-in verifies two hashes (the account's or the dummy, then a pending sign-up's or the dummy), whether or not the address has an account", async () => {
  const server = await createTestServer()
  const hasher = server.app.core.ops.domain.hasher
  const original = hasher.verify
  let calls = 0
  hasher.verify = async (hashed, password) => {
    calls += 1
    return original(hashed, password)
  }
  await server.api
    .post('/api/auth/login')
    .send({ email: 'nobody@example.test', password: 'some password' })
    .expect(401)
  expect(calls).toBe(2)
  await server.api
    .post('/api/auth/login')
    .send({ email: 'ada@example.com', password: 'some password' })
    .expect(401)
  expect(calls).toBe(4)
})

test('sign-up hashes the password whether or not the address is taken', async () => {
  const server = await createTestServer()
  const hasher = server.app.core.ops.domain.hasher
  const original = hasher.hash
  let calls = 0
  hasher.hash = async (password) => {
    calls += 1
    return original(password)
  }
  await server.api
    .post('/api/auth/signup')
    .send({ name: 'T', email: 'ada@example.com', password: 'a long enough passphrase' })
    .expect(202)
  expect(calls).toBe(1)
})
