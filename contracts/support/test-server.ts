/**
 * The contract suite's server: a fresh in-process app, or the CONTRACT_TARGET (docs/decisions/016-contract-target.md).
 * Every request goes through a contract agent, so every answer is validated and counted.
 */
import { once } from 'node:events'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, inject, onTestFinished, TestRunner } from 'vitest'
import { createApp, type AppOptions, type MockApp } from '#mock-server/app.ts'
import { createHttpServer, type ServerLimits } from '#mock-server/hosts/http-server.ts'
import { createCompiledDocuments } from '#mock-server/pipeline/openapi-docs.ts'
import { PRODUCT_MIGRATIONS } from '#mock-server/product/storage/migrations.ts'
import { createSqlEngines, type Engine, WARM_TIMEOUT_MS } from '../../mock-server/testing/sql-stores.ts'
import { CONTROL_TOKEN_HEADER, createMockClient, type MockClient } from '#api/mock-client.ts'
import { createContractAgent, fetchThrough, type ContractAgent } from '#contracts/support/api.ts'
import { createTargetServer, requireTargetHas } from '#contracts/support/target-agent.ts'
import { notCheckable, requireDirectConnection, TARGET_URL, unavailable } from '#contracts/support/target.ts'

/**
 * The argon2id cost is lowered here, explicitly, so hundreds of sign-ups stay fast; one test checks
 * the production parameters (see product/passwords.contract.test.ts).
 */
export const TEST_HASHER = { memoryCost: 1024, timeCost: 1 } as const

/**
 * What every in-process server of the suite is built with: the lowered hasher, and the documents compiled once per
 * worker (about 60 ms of a fresh server's 70). Each server still keeps its own state.
 */
export const TEST_APP_OPTIONS = { hasher: TEST_HASHER, documents: createCompiledDocuments() } as const

/**
 * CONTRACT_STORE=pglite|postgres runs every in-process server on that SQL store, each in a schema of its own on one
 * engine per worker (docs/contract-suite.md, "Every store"); unset, on memory.
 */
export const CONTRACT_STORE = readContractStore(process.env.CONTRACT_STORE)
/**
 * The time-out of a check of hundreds of calls (T10, T12). On a SQL store each call is a round of queries, PGlite
 * runs them inside the test process, and on a loaded machine such a check took over the usual 30 s.
 */
export const MANY_CALLS_TIMEOUT_MS = CONTRACT_STORE === 'memory' && !TARGET_URL ? 30_000 : 120_000
/** The SQL store's engine and its engines, or null on memory. */
const sqlStore =
  CONTRACT_STORE === 'memory'
    ? null
    : { engine: CONTRACT_STORE, engines: createSqlEngines(inject('databaseUrl')) }
/**
 * For the project's setup file, which runs in every file: starts the store's engine before the file's own hooks
 * (PGlite takes seconds, more on a busy machine), and drops the file's schemas after it.
 */
export function useContractStore(): void {
  if (!sqlStore) return
  const { engine, engines } = sqlStore
  beforeAll(() => engines.warm(engine), WARM_TIMEOUT_MS)
  // A file of many servers leaves as many schemas; dropping them took over the default 10 s on a slow machine.
  afterAll(() => engines.dropSchemas(), 120_000)
}

function readContractStore(value: string | undefined): 'memory' | Engine {
  if (!value || value === 'memory') return 'memory'
  if (value === 'pglite' || value === 'postgres') return value
  throw new Error(`Failed to read CONTRACT_STORE: "${value}" is not memory, pglite or postgres.`)
}

/** A server given a data file keeps that file's promises (restarts read it), so it stays on the file store. */
async function storeOptions(options: AppOptions): Promise<Pick<AppOptions, 'sql'>> {
  if (!sqlStore || options.dataFile) return {}
  const { sql, schema } = await sqlStore.engines.migrated(sqlStore.engine, PRODUCT_MIGRATIONS)
  return { sql: { client: sql, schema } }
}

export interface TestServer {
  app: MockApp
  /** Validated against the documents and recorded for the coverage table, like every contract call. */
  api: ContractAgent
  /** The same server without the control token (a stranger to /__mock), validated and counted like `api`. */
  stranger: ContractAgent
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
export const AGENT_ORIGIN = 'http://127.0.0.1'

/** The mock client over `api` (with whatever headers `api` carries, such as the control token). */
export function mockOf(api: ContractAgent): MockClient {
  const { codes } = api
  if (api.noControl !== undefined) {
    const rest = unavailable<MockClient>(api.noControl)
    // Without /__mock, the codes alone may still be read: from the mail the target sent (code-source.ts).
    if (!codes) return rest
    return new Proxy(rest, {
      get: (target, property) =>
        property === 'latestCode' ? codes.latestCode : Reflect.get(target, property),
    })
  }
  const client = createMockClient({ baseUrl: AGENT_ORIGIN, fetch: fetchThrough(api) })
  return {
    ...client,
    // A code source given for the run wins over the mailbox: the run was asked to read the mail.
    ...(codes && { latestCode: codes.latestCode }),
    arm(scenario) {
      // A proxy turns the dropped connection into an answer of its own, so the scenario's promise cannot be seen.
      if (scenario.name === 'answer-lost') requireDirectConnection('loses an answer on the wire')
      return client.arm(scenario)
    },
  }
}

/**
 * Ends the test as not checkable when the target has no usable /__mock, before it spends the rate limits.
 */
export function requireControl(api: ContractAgent): void {
  if (api.noControl !== undefined) notCheckable(api.noControl)
}

/**
 * Ends the test as not checkable when the codes the target mails cannot be read: no /__mock, and neither
 * CONTRACT_SMTP_PORT nor CONTRACT_CODE_ADAPTER (docs/contract-suite.md, "Codes without /__mock").
 */
export function requireCodes(api: ContractAgent): void {
  if (api.noControl !== undefined && !api.codes)
    notCheckable(
      `needs the codes the target mails, and it has no /__mock to read them (set CONTRACT_SMTP_PORT or CONTRACT_CODE_ADAPTER): ${api.noControl}`,
    )
}

/**
 * For a check that needs a server of its own. Against a CONTRACT_TARGET, ends the test as not checkable.
 * @example requireOwnServer('reads what the in-process app stores')
 */
export function requireOwnServer(reason: string): void {
  if (TARGET_URL) notCheckable(reason)
}

const controlHeadersOf = ({ controlToken }: AppOptions): Record<string, string> =>
  controlToken ? { [CONTROL_TOKEN_HEADER]: controlToken } : {}

/** The server of an in-process app, or of its origin once it listens. */
function serverOf(app: MockApp, target: MockApp | string, options: AppOptions): TestServer {
  const api = createContractAgent(target, { headers: controlHeadersOf(options) })
  const { controlToken } = options
  const stranger = createContractAgent(target)
  return { app, api, stranger, mock: mockOf(api), controlToken, controlHeaders: controlHeadersOf(options) }
}

/** The target standing in for a fresh app (createTargetServer says when it cannot). */
async function targetTestServer(options: AppOptions): Promise<TestServer> {
  const { target: _target, ...server } = await createTargetServer(options)
  return { ...server, app: unavailable<MockApp>('needs the in-process app'), mock: mockOf(server.api) }
}

async function readyApp(options: AppOptions): Promise<MockApp> {
  const app = createApp({ ...TEST_APP_OPTIONS, ...(await storeOptions(options)), ...options })
  await app.core.ready
  // Its last writes land before the test's folder is removed (onTestFinished runs last-registered first).
  if (options.dataFile && TestRunner.getCurrentTest()) onTestFinished(() => app.core.flush())
  return app
}

/** A fresh app; its `api` carries the app's control token, so every helper can drive /__mock. */
export async function createTestServer(options: AppOptions = {}): Promise<TestServer> {
  if (TARGET_URL) return targetTestServer(options)
  const app = await readyApp(options)
  return serverOf(app, app, options)
}

/**
 * A fresh in-process app, in a run against a target too: a server other than the target, for a check that needs one
 * beside it (a token another server issued). Its answers are validated and counted like any.
 * @example const other = await createInProcessServer(); await signUp(other.api)
 */
export async function createInProcessServer(): Promise<TestServer> {
  const app = await readyApp({})
  return serverOf(app, app, {})
}

/**
 * A server built with `options`, for a check in a file whose tests share `current` (useTestServer): in process a fresh
 * one; against a target, `current` (the target), when the target has those settings.
 * @example const secure = await serverWith(server, { trustProxyHops: 1 })
 */
export async function serverWith(current: TestServer, options: AppOptions): Promise<TestServer> {
  if (!TARGET_URL) return createTestServer(options)
  await requireTargetHas(options)
  return current
}

/**
 * A fresh server for each test, built in a beforeEach. Options may be a function, called before each test.
 * @example
 * const server = useTestServer({ refreshGraceMs: 10_000 })
 * test('…', async () => { await server.api.get('/api/_auth/session').expect(200) })
 */
export function useTestServer(options: AppOptions | (() => AppOptions) = {}): TestServer {
  let current: TestServer | undefined
  beforeEach(async () => {
    current = await createTestServer(typeof options === 'function' ? options() : options)
  })
  // Reads the current test's server at each use, so helpers handed `server` before the tests run see the fresh one.
  return new Proxy({} as TestServer, {
    get(_, property) {
      if (current) return Reflect.get(current, property)
      // Not a thenable, and inspection (symbols) is no use of it.
      if (property === 'then' || typeof property === 'symbol') return undefined
      throw new Error('Failed to read the test server: it is made before each test, read it in one.')
    },
  })
}

/**
 * A fresh app listening on 127.0.0.1, for tests of many requests, long streams or raw bytes.
 * Started in a test it closes with it; started in a beforeAll, `close()` it in the afterAll.
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
    const { target, ...server } = await createTargetServer(options)
    const url = new URL(target.baseUrl)
    return {
      ...server,
      app: unavailable<MockApp>('needs the in-process app'),
      mock: mockOf(server.api),
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
  const close = async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
  if (TestRunner.getCurrentTest()) onTestFinished(close)
  return { ...serverOf(app, origin, options), origin, port, server, close }
}
