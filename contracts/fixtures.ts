// Fixtures of the contract suite: one server fixture (a fresh in-process app, or the same listening on
// 127.0.0.1), accounts made through the API and the mailbox, and the small helpers every contract test needs. The
// control surface is driven through the one mock client (contracts/support/mock-client.ts).
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { onTestFinished, TestRunner } from 'vitest'
import { createApp, type AppOptions, type MockApp } from '#mock-server/app.ts'
import { createHttpServer, type ServerLimits } from '#mock-server/hosts/http-server.ts'
import { signUpVerified } from '#harness/accounts.ts'
import type { Response, Test } from 'supertest'
import { createContractAgent, fetchThrough, METHODS, type ContractAgent } from '#contracts/support/api.ts'
import { getProjectValidator } from '#contracts/support/openapi-validator.ts'
import { getCoverageDir } from '#contracts/coverage/recorder.ts'
import { readCoverageRecords } from '#contracts/coverage/report.ts'
import { SEED_ACCOUNTS } from '#mock-server/domain/seed.ts'
import {
  countTargetRequest,
  getContractTarget,
  notCheckable,
  TARGET_URL,
  unavailable,
  type ContractTarget,
} from '#contracts/support/target.ts'
import type { components } from '#api/openapi.gen.ts'
import {
  CONTROL_TOKEN_HEADER,
  createMockClient,
  type ArmRequest,
  type MailPurpose,
  type MockClient,
} from '#api/mock-client.ts'

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
  /** The server's control token, if it has one. */
  controlToken: string | undefined
  /** The control token's header when the server has one (else none), for requests sent without `api`. */
  controlHeaders: Record<string, string>
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
  const noControl = uncontrolled.get(api)
  if (noControl) return unavailable<MockClient>(noControl)
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

const controlHeadersOf = ({ controlToken }: AppOptions): Record<string, string> =>
  controlToken ? { [CONTROL_TOKEN_HEADER]: controlToken } : {}

/** The contract agent of a server, carrying its control token when it has one. */
function agentOf(target: MockApp | string, options: AppOptions): ContractAgent {
  return createContractAgent(target, { headers: controlHeadersOf(options) })
}

/** For each server's `api`, an agent of the same server without the control token. */
const strangers = new WeakMap<ContractAgent, ContractAgent>()

/**
 * An agent of `server` that carries no control token (a stranger to /__mock): validated and counted like `api`.
 * @example await strangerOf(server).get('/__mock/mailbox').expect(401)
 */
export function strangerOf(server: TestServer): ContractAgent {
  const stranger = strangers.get(server.api)
  if (!stranger) throw new Error('Failed to make a stranger: the server was not made by these fixtures.')
  return stranger
}

/** The tests that were given the target as their server already (a second server cannot be the same one). */
const testsWithServer = new WeakSet<object>()

/** Agents of a contract target without a usable /__mock, with the reason (contracts/support/target.ts). */
const uncontrolled = new WeakMap<ContractAgent, string>()

/**
 * Ends the test as not checkable when `api` is a target's without a usable /__mock: for helpers that would spend
 * requests (and the target's rate limits) before they reach the mailbox.
 */
export function requireControl(api: ContractAgent): void {
  const noControl = uncontrolled.get(api)
  if (noControl) notCheckable(noControl)
}

/**
 * The test's server when the run is against CONTRACT_TARGET: the target itself, when it can stand for the server
 * the test asked for; otherwise the test ends as not checkable against this target, with the reason.
 * - options other than `production` configure a server the target is not: not checkable; but `controlToken` is the
 *   target's own when it asks for the token CONTRACT_CONTROL_TOKEN gives (the test reads it from `controlToken`);
 * - `production: true` needs a target without /__mock; the default (a mock-mode server) runs against any target, and
 *   only its uses of /__mock (the `mock` client, a request to a /__mock path) need a target that offers one;
 * - the in-process app (`app`) is never available.
 */
async function targetServer(options: AppOptions): Promise<TestServer & { target: ContractTarget }> {
  const target = await getContractTarget()
  const { production } = options
  const configured = Object.keys(options).filter(
    (name) => name !== 'production' && !(name === 'controlToken' && target.controlToken !== null),
  )
  if (configured.length > 0) notCheckable(`needs a server built with ${configured.join(', ')}`)
  if (production === true && !target.production)
    notCheckable('needs a server in production mode (no /__mock), and the target offers /__mock')
  const test = TestRunner.getCurrentTest()
  if (test) {
    if (testsWithServer.has(test)) notCheckable('needs a second server, separate from the first')
    testsWithServer.add(test)
  }
  const noControl = production === true ? null : target.noControl
  const guard: TargetGuard = {
    noControl,
    rateLimitedWithoutReset: target.noControl !== null,
    mockModeOnProduction: production !== true && target.production,
  }
  const api = guardForTarget(createContractAgent(target.baseUrl, { headers: target.headers }), guard)
  if (noControl) uncontrolled.set(api, noControl)
  strangers.set(api, guardForTarget(createContractAgent(target.baseUrl), guard))
  return {
    app: unavailable<MockApp>('needs the in-process app'),
    api,
    mock: mockOf(api),
    controlToken: target.controlToken ?? undefined,
    controlHeaders: target.headers,
    target,
  }
}

interface TargetGuard {
  /** Why /__mock cannot be used (null: it can, or the test expects a server without it). */
  noControl: string | null
  /** No /__mock to reset the target between checks. */
  rateLimitedWithoutReset: boolean
  /** The test expects a mock-mode server and the target is a production one. */
  mockModeOnProduction: boolean
}

/** Bodies above this size may be cut off by a target that refuses them early (see guardForTarget). */
const OVERSIZED_BODY_BYTES = 64 * 1024

const SEED_EMAILS = SEED_ACCOUNTS.map((account) => account.email.toLowerCase())

/**
 * `agent` with the rules of a shared target (docs/decisions/016-contract-target.md): a request the target cannot
 * answer as the test's own server would ends the test as not checkable, with the reason, before it is sent:
 * - a /__mock path, when the target's control surface cannot be used;
 * - against a production target, an operation of mock-server/control.openapi.yaml (the mock's own sinks and identity
 *   provider), and a body naming a seeded account (a production server has none);
 * and, without a control surface to reset it, a `429 rate_limited` answer the target gave because earlier checks of
 * this run came from the same client.
 */
function guardForTarget(agent: ContractAgent, guard: TargetGuard): ContractAgent {
  const validator = getProjectValidator()
  const open = (method: string, path: string): Test => {
    // The provider's sign-in form is the control token's too: it would sign in whoever is typed.
    const controlled =
      path.startsWith('/__mock') || (method.toLowerCase() === 'post' && path.startsWith('/idp/authorize'))
    if (guard.noControl && controlled) notCheckable(guard.noControl)
    if (guard.mockModeOnProduction && path.startsWith('/api/auth/external/'))
      notCheckable('needs the identity provider the mock server plays, which a production target does not')
    if (
      guard.mockModeOnProduction &&
      validator.matchOperation(method, path.split('?')[0]!)?.document === 'control'
    )
      notCheckable(
        `needs the mock server's own sinks and identity provider (${method.toUpperCase()} ${path}), which a production target does not serve`,
      )
    const test = agent.request(method, path)
    countTargetRequest()
    let sentBytes = 0
    const send = test.send.bind(test)
    test.send = (body?: string | object) => {
      const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? '' : JSON.stringify(body ?? '')
      sentBytes += Buffer.isBuffer(body) ? body.length : Buffer.byteLength(text)
      if (guard.mockModeOnProduction && SEED_EMAILS.some((email) => text.toLowerCase().includes(email)))
        notCheckable('uses the seeded accounts of mock mode, which a production target does not have')
      return send(body)
    }
    // A server that refuses an oversized body may close the connection before the client has written it all: over
    // the network the client then sees the cut (EPIPE, ECONNRESET), not the answer.
    const then = test.then.bind(test)
    test.then = (onAnswer, onError) =>
      then(onAnswer, (error: unknown) => {
        const code = (error as { code?: unknown } | null)?.code
        if (sentBytes > OVERSIZED_BODY_BYTES && (code === 'EPIPE' || code === 'ECONNRESET')) {
          try {
            notCheckable(
              `the target closed the connection while a ${sentBytes}-byte body was being sent (${code}), so its answer cannot be read over the network`,
            )
          } catch (skipped) {
            error = skipped
          }
        }
        if (onError) return onError(error)
        throw error
      })
    if (guard.rateLimitedWithoutReset)
      test.expect((res: Response | undefined) => {
        if (res?.status !== 429 || (res.body as { error?: unknown } | undefined)?.error !== 'rate_limited')
          return
        // A limit this run's earlier calls reached is the target's right, not its fault: the check cannot be made.
        // A limit met at the run's first call of the operation, before the run reached any limit by its own calls, is
        // no such thing: a target that answers every call 429 must fail, not have its checks turned into skips; and a
        // limit an earlier run spent leaves nothing this run can vouch for, so it fails too, saying when to run again.
        const operationId = validator.matchOperation(method, path.split('?')[0]!)?.operationId
        if (operationId && answeredOtherwise(operationId)) noteLimitReached()
        else if (!limitReachedBefore())
          throw new Error(
            `The target answered 429 rate_limited to ${method.toUpperCase()} ${path} before this run had any other answer from ${operationId ?? 'it'}, so no earlier check of this run reached the limit: the target refuses every call, or an earlier run from this client spent it (run again after its Retry-After: ${String(res.headers['retry-after'] ?? 'not given')}).`,
          )
        notCheckable(
          `the target rate-limited this client after the run's earlier calls of ${operationId} (no /__mock to reset it between checks)`,
        )
      })
    return test
  }
  const methods = Object.fromEntries(METHODS.map((m) => [m, (path: string) => open(m, path)])) as Omit<
    ContractAgent,
    'request'
  >
  return { ...methods, request: open }
}

/**
 * A limit this run reached by its own calls (a 429 after earlier answers of the same operation) is remembered for the
 * rest of the run, in its coverage directory (files run in separate workers): a limiter may count several operations
 * together (the mock server's counts sign-ins and password updates alike), so another operation's first call may
 * meet it too. Before the run has reached any limit so, a 429 at an operation's first call fails.
 */
const LIMIT_REACHED_FILE = 'target-limit-reached'

function noteLimitReached(): void {
  const dir = getCoverageDir()
  if (dir) writeFileSync(join(dir, LIMIT_REACHED_FILE), '')
}

function limitReachedBefore(): boolean {
  const dir = getCoverageDir()
  return dir !== undefined && existsSync(join(dir, LIMIT_REACHED_FILE))
}

/** Whether this run (any worker, any earlier check) had an answer other than 429 from `operationId`. */
function answeredOtherwise(operationId: string): boolean {
  const dir = getCoverageDir()
  if (!dir) return false
  return readCoverageRecords(dir).some(
    (record) => record.kind === 'documented' && record.operationId === operationId && record.status !== '429',
  )
}

/**
 * For a check that needs a server of its own making (one it starts itself, or reads inside): against a
 * CONTRACT_TARGET, ends the test as not checkable with `reason`; in-process, does nothing.
 * @example requireOwnServer('reads what the in-process app stores')
 */
export function requireOwnServer(reason: string): void {
  if (TARGET_URL) notCheckable(reason)
}

/** A fresh app; its `api` carries the control token when the app has one, so every helper here drives /__mock. */
export async function createTestServer(options: AppOptions = {}): Promise<TestServer> {
  if (TARGET_URL) return targetServer(options)
  const app = await readyApp(options)
  const api = agentOf(app, options)
  strangers.set(api, createContractAgent(app))
  const { controlToken } = options
  return { app, api, mock: mockOf(api), controlToken, controlHeaders: controlHeadersOf(options) }
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
  if (TARGET_URL) {
    if (Object.keys(limits).length > 0)
      notCheckable(`needs a server with the limits ${Object.keys(limits).join(', ')}`)
    const { target, ...server } = await targetServer(options)
    const url = new URL(target.baseUrl)
    return {
      ...server,
      origin: url.origin,
      port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
      server: unavailable<Server>('needs the listening server itself'),
      close: async () => undefined,
    }
  }
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
  strangers.set(api, createContractAgent(origin))
  const { controlToken } = options
  const controlHeaders = controlHeadersOf(options)
  return { app, api, mock: mockOf(api), controlToken, controlHeaders, origin, port, server, close }
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
  requireControl(api)
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
  requireControl(api)
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
