/**
 * The contract suite's HTTP client: supertest, validating and recording every response (contracts/coverage/).
 * Validation is an `.expect(fn)` added at creation, so it runs however the test settles the request.
 * Undocumented requests are recorded as such, not validated.
 */
import { AssertionError } from 'node:assert'
import request, { type Response, type Test } from 'supertest'
import { appendCoverageRecord } from '#contracts/coverage/recorder.ts'
import type { operations as ControlOperations } from '#api/control.gen.ts'
import type { operations as ProductOperations } from '#api/openapi.gen.ts'
import { normalizeRequestPath } from '#contracts/support/openapi-documents.ts'
import {
  getProjectValidator,
  type HeaderValue,
  type ResponseToValidate,
  type ResponseValidation,
} from '#contracts/support/openapi-validator.ts'
import { isOverHttps } from '#contracts/support/safe-answer.ts'
import type { MockClient } from '#api/mock-client.ts'
import type { CodeSource } from '#contracts/support/code-source.ts'

export type OperationId = keyof ProductOperations | keyof ControlOperations

/** The methods a contract agent has (one function each). */
export const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options'] as const
type Method = (typeof METHODS)[number]

/** The codes a server without /__mock mailed; counted where the source can tell (CodeSource's countCodes). */
export type AgentCodes = Pick<MockClient, 'latestCode'> & Pick<CodeSource, 'countCodes'>

export type ContractAgent = Record<Method, (path: string) => Test> & {
  /** Any method by name, for table-driven tests. */
  request(method: string, path: string): Test
  /** Why this agent's server offers no usable /__mock (a contract target's, contracts/support/target-agent.ts). */
  readonly noControl?: string
  /** Where the codes its server mails are read without /__mock (contracts/support/code-source.ts). */
  readonly codes?: AgentCodes
}

export interface ContractAgentOptions {
  /** Keep cookies between requests (supertest's `request.agent`); off by default: tests set `Cookie` themselves. */
  keepCookies?: boolean
  /** Headers every request carries (the control token of a server that has one); a test's own `.set` wins. */
  headers?: Record<string, string>
  /** Carried as the agent's `noControl`. */
  noControl?: string
  /** Carried as the agent's `codes`. */
  codes?: AgentCodes
  /** Makes each request in place of supertest's own (a contract target's requests: target-agent.ts). */
  createTest?: (method: Method, path: string) => Test
}

const MAX_BODY_IN_MESSAGE = 4000

function describeBody(body: unknown): string {
  const text = typeof body === 'string' ? body : (JSON.stringify(body) ?? String(body))
  return text.length > MAX_BODY_IN_MESSAGE ? `${text.slice(0, MAX_BODY_IN_MESSAGE)}… (truncated)` : text
}

/**
 * Validates a response and records its coverage, for responses obtained without `createContractAgent`.
 * Throws an AssertionError listing every mismatch.
 * @example
 * requireValidResponse({ method: 'GET', path: '/api/me', status: 401, headers: { 'cache-control': 'no-store', 'content-type': 'application/json' }, body: { error: 'token_expired', message: '…' } })
 */
export function requireValidResponse(input: ResponseToValidate): ResponseValidation {
  const validator = getProjectValidator()
  const path = normalizeRequestPath(input.path)
  if (!validator.matchOperation(input.method, path)) {
    appendCoverageRecord({
      kind: 'undocumented',
      method: input.method.toUpperCase(),
      path,
      status: input.status,
    })
    return { document: null, operationId: null, documentedStatus: null, errors: [] }
  }
  const result = validator.validateResponse(input)
  if (result.errors.length > 0) {
    const file = validator.documents.find((d) => d.name === result.document)?.file
    const against = result.documentedStatus ? `response ${result.documentedStatus}` : 'no documented response'
    const message = [
      `${input.method.toUpperCase()} ${path} → ${input.status} does not match ${file} (${result.operationId}, ${against}):`,
      ...result.errors.map((e) => `  - ${e}`),
      `Response body: ${describeBody(input.body)}`,
    ].join('\n')
    throw new AssertionError({ message })
  }
  appendCoverageRecord({
    kind: 'documented',
    document: result.document!,
    operationId: result.operationId!,
    status: result.documentedStatus!,
  })
  return result
}

/**
 * `requireValidResponse` for a fetch `Response` (the MSW host, or `fetch` against a running server).
 * Reads a clone, so the caller can still read the body.
 * @example await requireValidFetchResponse('GET', '/api/me', await fetch(`${origin}/api/me`))
 */
export async function requireValidFetchResponse(
  method: string,
  path: string,
  response: globalThis.Response,
): Promise<ResponseValidation> {
  return requireValidResponse(await readFetchResponse(method, path, response.clone()))
}

/**
 * A fetch `Response` as the validator reads it. Reads the body: pass a clone to keep it.
 */
export async function readFetchResponse(
  method: string,
  path: string,
  response: globalThis.Response,
): Promise<ResponseToValidate> {
  const text = await response.text()
  const headers: Record<string, HeaderValue> = Object.fromEntries(response.headers.entries())
  const cookies = response.headers.getSetCookie()
  if (cookies.length > 0) headers['set-cookie'] = cookies
  const isJson = /[/+]json\b/i.test(response.headers.get('content-type') ?? '')
  let body: unknown = text === '' ? undefined : text
  if (isJson && text !== '') {
    try {
      body = JSON.parse(text)
    } catch {
      // left as text: the validator then reports it as not of the documented schema
    }
  }
  return { method, path, status: response.status, headers, body }
}

/** The body the validator expects: parsed JSON for JSON media types, text otherwise, undefined when empty. */
function readBody(res: Response): unknown {
  if (res.text === '') return undefined
  if (/[/+]json\b/i.test(String(res.headers['content-type'] ?? ''))) return res.body
  return typeof res.text === 'string' ? res.text : res.body
}

function toValidatable(method: string, path: string, res: Response): ResponseToValidate {
  // With `.redirects(n)` the answer is the last response, so validate it against the last URL.
  const followed = res.redirects?.at(-1)
  return {
    method: followed && method.toUpperCase() !== 'HEAD' ? 'GET' : method,
    path: followed ?? path,
    status: res.status,
    headers: res.headers as Record<string, HeaderValue>,
    // An answer to HEAD has no body on the wire; supertest still hands an empty object.
    body: method.toUpperCase() === 'HEAD' ? undefined : readBody(res),
    secure: wentOverHttps(res),
  }
}

/** Whether the request reached the server over https, by its URL or the X-Forwarded-Proto the test sent. */
function wentOverHttps(res: Response): boolean {
  const sent = res.request as Partial<Pick<Response['request'], 'url' | 'get'>> | undefined
  return isOverHttps(sent?.url, sent?.get?.('X-Forwarded-Proto'))
}

/**
 * supertest over `app`, with every response validated and recorded. Methods return supertest's own `Test`.
 * @example
 * const api = createContractAgent(createApp())
 * const res = await api.post('/api/auth/login').send({ email, password }).set('Cookie', cookie).expect(200)
 * // res.body is a valid SignedInBody; had it not been, the await would have thrown with the schema errors
 */
export function createContractAgent(
  app: Parameters<typeof request>[0],
  options: ContractAgentOptions = {},
): ContractAgent {
  const client = options.keepCookies ? request.agent(app) : request(app)
  const createTest = options.createTest ?? ((verb: Method, path: string) => client[verb](path))
  const open = (method: string, path: string): Test => {
    const verb = method.toLowerCase() as Method
    if (!METHODS.includes(verb)) throw new Error(`Failed to create a request: unsupported method ${method}.`)
    return createTest(verb, path)
      .set(options.headers ?? {})
      .expect((res: Response | undefined) => {
        if (res) requireValidResponse(toValidatable(verb, path, res)) // no response: supertest reports the network error
      })
  }
  const methods = Object.fromEntries(METHODS.map((m) => [m, (path: string) => open(m, path)])) as Record<
    Method,
    (path: string) => Test
  >
  return {
    ...methods,
    request: open,
    ...(options.noControl !== undefined && { noControl: options.noControl }),
    ...(options.codes !== undefined && { codes: options.codes }),
  }
}

/**
 * Records that a test exercised `operationId` with `status`, for responses that bypassed the agent.
 * Throws when the status is not documented for the operation.
 * @example recordCoverage('getMe', 503) // counts getMe/5XX
 */
export function recordCoverage(operationId: OperationId, status: number | string): void {
  const found = getProjectValidator().getDocumentedStatus(operationId, status)
  if (!found)
    throw new Error(`Failed to record coverage: status ${status} is not documented for ${operationId}.`)
  appendCoverageRecord({
    kind: 'documented',
    document: found.document,
    operationId,
    status: found.documentedStatus,
  })
}

/** Statuses whose answer has no body (a fetch `Response` refuses one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304])

/**
 * A `fetch` through `agent`, so fetch clients' answers are validated and recorded too. Only path and query are used.
 * @example const mock = createMockClient({ baseUrl: 'http://127.0.0.1', fetch: fetchThrough(api) })
 */
export function fetchThrough(agent: ContractAgent): (input: Request) => Promise<globalThis.Response> {
  return async (input) => {
    const { pathname, search } = new URL(input.url)
    const test = agent.request(input.method, `${pathname}${search}`)
    input.headers.forEach((value, name) => void test.set(name, value))
    const text = await input.text()
    const res = await (text === '' ? test : test.send(text))
    const headers = Object.entries(res.headers as Record<string, HeaderValue>).flatMap(([name, value]) =>
      ([] as (string | number)[]).concat(value ?? []).map((one): [string, string] => [name, String(one)]),
    )
    const body = NULL_BODY_STATUSES.has(res.status) ? null : (res.text ?? '')
    return new globalThis.Response(body, { status: res.status, headers })
  }
}
