// Fixtures of the contract suite: a fresh in-process app per test file, accounts made through the API
// and the mailbox, and the small helpers every contract test needs.
import { randomUUID } from 'node:crypto'
import { createApp, type AppOptions, type MockApp } from '#mock-server/app.ts'
import { createContractAgent, type ContractAgent } from '#contracts/support/api.ts'

/**
 * The argon2id cost is lowered here, explicitly, so hundreds of sign-ups stay fast; one test checks
 * the production parameters (see passwords.contract.test.ts).
 */
export const TEST_HASHER = { memoryCost: 1024, timeCost: 1 } as const

export const PASSWORD = 'a long enough passphrase'

export interface TestServer {
  app: MockApp
  api: ContractAgent
}

/** A fresh app; its `api` carries the control token when the app has one, so every helper here drives /__mock. */
export async function createTestServer(options: AppOptions = {}): Promise<TestServer> {
  const app = createApp({ hasher: TEST_HASHER, ...options })
  await app.core.ready
  const headers = options.controlToken ? { 'X-Mock-Control-Token': options.controlToken } : undefined
  return { app, api: createContractAgent(app, headers && { headers }) }
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`
}

/** The newest code mailed to `email` for `purpose`, read through the control surface. */
export async function readCode(api: ContractAgent, email: string, purpose = 'signup'): Promise<string> {
  const res = await api.get(`/__mock/mailbox?email=${encodeURIComponent(email)}`).expect(200)
  const mails = (res.body.messages as { purpose: string; code?: string }[]).filter(
    (mail) => mail.purpose === purpose,
  )
  const code = mails.at(-1)?.code
  if (!code) throw new Error(`Failed to read a code: no ${purpose} mail for ${email}.`)
  return code
}

/** Recovers the password of `email` as its owner would: forgot, the mailed code, then the new password. */
export async function resetPassword(api: ContractAgent, email: string, password: string): Promise<void> {
  await api.post('/api/auth/forgot').send({ email }).expect(202)
  const code = await readCode(api, email, 'reset')
  const verified = await api.post('/api/auth/otp/verify').send({ email, code, purpose: 'reset' }).expect(200)
  await api
    .post('/api/auth/update_password')
    .send({ reset_token: verified.body.reset_token, password })
    .expect(200)
}

export interface SignedIn {
  email: string
  password: string
  token: string
  refreshToken: string
  serviceToken: string
  cookie: string
  user: { id: string; email: string; name: string }
}

export function sessionCookieOf(setCookie: string[] | string | undefined): string {
  const first = ([] as string[]).concat(setCookie ?? []).find((cookie) => /^(__Host-)?sid=/.test(cookie))
  if (!first) throw new Error('Failed to read the session cookie: none was set.')
  return first.split(';')[0]!
}

/** Signs up through the API, verifies with the mailed code, and returns the signed-in account. */
export async function signUp(api: ContractAgent, label = 'user', password = PASSWORD): Promise<SignedIn> {
  const email = uniqueEmail(label)
  await api.post('/api/auth/signup').send({ name: 'Test Learner', email, password }).expect(202)
  const code = await readCode(api, email, 'signup')
  const res = await api.post('/api/auth/otp/verify').send({ email, code, purpose: 'signup' }).expect(200)
  return {
    email,
    password,
    token: res.body.token,
    refreshToken: res.body.refresh_token,
    serviceToken: res.body.service_token,
    cookie: sessionCookieOf(res.headers['set-cookie']),
    user: res.body.user,
  }
}

/** Signs in with the password. */
export async function signIn(api: ContractAgent, email: string, password: string): Promise<SignedIn> {
  const res = await api.post('/api/auth/login').send({ email, password }).expect(200)
  return {
    email,
    password,
    token: res.body.token,
    refreshToken: res.body.refresh_token,
    serviceToken: res.body.service_token,
    cookie: sessionCookieOf(res.headers['set-cookie']),
    user: res.body.user,
  }
}

/** A sign-in call, unsettled, so the test states the status it expects. */
export const login = (server: TestServer, email: string, password: string) =>
  server.api.post('/api/auth/login').send({ email, password })

export async function advanceClock(api: ContractAgent, ms: number): Promise<void> {
  await api.post('/__mock/clock').send({ advance_ms: ms }).expect(200)
}

export async function arm(api: ContractAgent, scenario: Record<string, unknown>): Promise<void> {
  await api.post('/__mock/scenarios').send(scenario).expect(201)
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })
