// The MSW host runs the same operation table as the Node host: one sign-up journey through fetch.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createMswHandlers } from './msw.ts'

const { handlers, core } = createMswHandlers({
  baseUrl: 'http://app.test',
  hasher: { memoryCost: 1024, timeCost: 1 },
})
const server = setupServer(...handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`http://app.test${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  })

test('signs up, verifies the mailed code and reads the user with the token', async () => {
  await core.ready
  const email = 'msw-host@example.test'
  expect(
    (await post('/api/auth/signup', { name: 'Msw', email, password: 'a long enough passphrase' })).status,
  ).toBe(202)
  const code = (await core.ops.mailbox.list(email))[0]?.code
  const verified = await post('/api/auth/otp/verify', { email, code, purpose: 'signup' })
  expect(verified.status).toBe(200)
  expect(verified.headers.get('cache-control')).toBe('no-store')
  const { token } = (await verified.json()) as { token: string }
  const me = await fetch('http://app.test/api/me', { headers: { authorization: `Bearer ${token}` } })
  expect(await me.json()).toEqual({ id: expect.any(String), email, name: 'Msw' })
})

test('validates bodies and serves the control surface like the Node host', async () => {
  const bad = await post('/api/auth/login', { email: 'x' })
  expect(bad.status).toBe(400)
  expect(((await bad.json()) as { error: string }).error).toBe('validation_failed')
  const clock = await fetch('http://app.test/__mock/clock')
  expect(((await clock.json()) as { offset_ms: number }).offset_ms).toBe(0)
})

test('a lost answer is a network error for fetch, after the refresh has rotated', async () => {
  const signedIn = await post('/api/auth/login', {
    email: 'ada@example.com',
    password: 'analytical-engine-1843',
  })
  const { refresh_token } = (await signedIn.json()) as { refresh_token: string }
  await core.ops.scenarios.arm({ name: 'answer-lost', email: 'ada@example.com', operation: 'refreshToken' })
  await expect(post('/api/refresh_token', { refresh_token })).rejects.toThrow(TypeError)
  expect((await core.ops.journal.list()).at(-1)).toMatchObject({
    operation: 'refreshToken',
    status: 200,
    scenario: 'answer-lost',
  })
  const retried = await post('/api/refresh_token', { refresh_token })
  expect(retried.status).toBe(200)
  expect(((await retried.json()) as { refresh_token: string }).refresh_token).not.toBe(refresh_token)
})
