// Fixtures of the contract suite: one server fixture (a fresh in-process app, or the same listening on
// 127.0.0.1), accounts made through the API and the mailbox, and the small helpers every contract test needs. The
// control surface is driven through the one mock client (contracts/support/mock-client.ts).
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { onTestFinished, TestRunner } from 'vitest'
import { createApp, type AppOptions, type MockApp } from '#mock-server/app.ts'
import { createHttpServer, type ServerLimits } from '#mock-server/hosts/http-server.ts'
import { signUpVerified } from '#contracts/support/accounts.ts'
import { createContractAgent, fetchThrough, type ContractAgent } from '#contracts/support/api.ts'
import type { components } from '#contracts/openapi.gen.ts'
import {
  CONTROL_TOKEN_HEADER,
  createMockClient,
  type ArmRequest,
  type MailPurpose,
  type MockClient,
} from '#contracts/support/mock-client.ts'

/**
 * The argon2id cost is lowered here, explicitly, so hundreds of sign-ups stay fast; one test checks
 * the production parameters (see passwords.contract.test.ts).
 */
export const TEST_HASHER = { memoryCost: 1024, timeCost: 1 } as const

export const PASSWORD = 'a long enough passphrase'

export interface TestServer {
  app: MockApp
  /** Validated against the documents and recorded for the coverage table, like every contract call. */
  api: ContractAgent
  /** The control surface, through `api`. */
  mock: MockClient
}

export interface LiveServer extends TestServer {
  /** e.g. http://127.0.0.1:41234 */
  origin: string
  port: number
  server: Server
  close(): Promise<void>
}

/** The origin the mock client names; `fetchThrough` sends only the path, to the agent's own server. */
const AGENT_ORIGIN = 'http://127.0.0.1'
const mockClients = new WeakMap<ContractAgent, MockClient>()

/** The mock client over `api` (with whatever headers `api` carries, such as the control token). */
export function mockOf(api: ContractAgent): MockClient {
  let mock = mockClients.get(api)
  if (!mock) {
    mock = createMockClient({ baseUrl: AGENT_ORIGIN, fetch: fetchThrough(api) })
    mockClients.set(api, mock)
  }
  return mock
}

async function readyApp(options: AppOptions): Promise<MockApp> {
  const app = createApp({ hasher: TEST_HASHER, ...options })
  await app.core.ready
  return app
}

/** The contract agent of a server, carrying its control token when it has one. */
function agentOf(target: MockApp | string, { controlToken }: AppOptions): ContractAgent {
  return createContractAgent(
    target,
    controlToken ? { headers: { [CONTROL_TOKEN_HEADER]: controlToken } } : {},
  )
}

/** A fresh app; its `api` carries the control token when the app has one, so every helper here drives /__mock. */
export async function createTestServer(options: AppOptions = {}): Promise<TestServer> {
  const app = await readyApp(options)
  const api = agentOf(app, options)
  return { app, api, mock: mockOf(api) }
}

/**
 * A fresh app listening on 127.0.0.1 behind the mock server's own HTTP server (with its `limits`), for tests that
 * send many requests at once, a long stream, or raw bytes: one server and its connections instead of supertest's
 * server per request. Started in a test (or its beforeEach), it is closed when that test finishes; started in a
 * beforeAll, `close()` it in the afterAll.
 * @example
 * const live = await startLiveServer({ refreshGraceMs: 60_000 })
 * await live.api.get('/api/_auth/session').expect(200)
 */
export async function startLiveServer(
  options: AppOptions = {},
  limits: Partial<ServerLimits> = {},
): Promise<LiveServer> {
  const app = await readyApp(options)
  const server = createHttpServer(app, limits)
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const port = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${port}`
  const api = agentOf(origin, options)
  const close = async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  if (TestRunner.getCurrentTest()) onTestFinished(close)
  return { app, api, mock: mockOf(api), origin, port, server, close }
}

export function uniqueEmail(label = 'user'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`
}

/** The newest code mailed to `email` for `purpose`, read through the control surface. */
export const readCode = (
  api: ContractAgent,
  email: string,
  purpose: MailPurpose = 'signup',
): Promise<string> => mockOf(api).latestCode(email, purpose)

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
  user: components['schemas']['User']
}

export function sessionCookieOf(setCookie: string[] | string | undefined): string {
  const first = ([] as string[]).concat(setCookie ?? []).find((cookie) => /^(__Host-)?sid=/.test(cookie))
  if (!first) throw new Error('Failed to read the session cookie: none was set.')
  return first.split(';')[0]!
}

/** The account as a signed-in answer (sign-up's verification or a sign-in) gives it. */
function signedIn(
  email: string,
  password: string,
  body: components['schemas']['SignedInBody'],
  setCookie: string[] | string | undefined,
): SignedIn {
  if (!('id' in body.user)) throw new Error('Failed to read the user: the answer has the legacy field names.')
  return {
    email,
    password,
    token: body.token,
    refreshToken: body.refresh_token,
    serviceToken: body.service_token,
    cookie: sessionCookieOf(setCookie),
    user: body.user,
  }
}

/** Signs up through the API, verifies with the mailed code, and returns the signed-in account. */
export async function signUp(api: ContractAgent, label = 'user', password = PASSWORD): Promise<SignedIn> {
  const email = uniqueEmail(label)
  const { body, response } = await signUpVerified(
    { baseUrl: AGENT_ORIGIN, fetch: fetchThrough(api), mock: mockOf(api) },
    { name: 'Test Learner', email, password },
  )
  return signedIn(email, password, body, response.headers.getSetCookie())
}

/** Signs in with the password. */
export async function signIn(api: ContractAgent, email: string, password: string): Promise<SignedIn> {
  const res = await api.post('/api/auth/login').send({ email, password }).expect(200)
  return signedIn(email, password, res.body, res.headers['set-cookie'])
}

/** A sign-in call, unsettled, so the test states the status it expects. */
export const login = (server: TestServer, email: string, password: string) =>
  server.api.post('/api/auth/login').send({ email, password })

export async function advanceClock(api: ContractAgent, ms: number): Promise<void> {
  await mockOf(api).advanceClock(ms)
}

export async function arm(api: ContractAgent, scenario: ArmRequest): Promise<void> {
  await mockOf(api).arm(scenario)
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` })
