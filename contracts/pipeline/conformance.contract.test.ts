// The contract as an outside judge reads it, over both documents and every operation. Three sources of calls:
// 1. requests generated from the schemas (contracts/support/request-generator.ts), checked well formed by Ajv;
// 2. every scenario on every operation it names;
// 3. a fault thrown in every handler.
// Three kinds of disagreement must each be zero:
// - undocumented status (`default` counts as none);
// - schema-invalid answer, or a scenario answer its `x-scenarios` does not name;
// - well-formed request refused as malformed.
// Seeded: CONFORMANCE_SEED=<n> replays a run.
import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { requireControl, requireOwnServer, startLiveServer, type LiveServer } from '#contracts/fixtures.ts'
import { SCENARIO_RULES, type ScenarioName } from '#api/operations.gen.ts'
import {
  createRng,
  generateRequest,
  listOperations,
  type GeneratedOperation,
  type GeneratedRequest,
  type RequestPool,
  type Rng,
} from '#contracts/support/request-generator.ts'
import { readFetchResponse, recordCoverage, type OperationId } from '#contracts/support/api.ts'
import type { ArmRequest } from '#api/mock-client.ts'
import {
  resolveLocalRef,
  type OpenApiDocument,
  type ResponseObject,
} from '#contracts/support/openapi-documents.ts'
import { getProjectValidator, type DocumentName } from '#contracts/support/openapi-validator.ts'
import { resetWithPool } from '#contracts/support/request-pool.ts'
import { SERVED_IN_PRODUCTION } from '#contracts/support/target-agent.ts'
import { createStateReader, type StateReader } from '#contracts/support/server-state.ts'

function readPositive(name: string): number | null {
  const raw = process.env[name]
  if (!raw?.trim()) return null
  const count = Number(raw)
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error(`${name} must be a positive whole number, not ${JSON.stringify(raw)}.`)
  return count
}

const SEED = process.env.CONFORMANCE_SEED ? Number(process.env.CONFORMANCE_SEED) : randomInt(2 ** 31)
/**
 * Well-formed requests sent per operation (CONFORMANCE_PER_OPERATION, 40 unless set; the SQL and balancer legs send
 * fewer, docs/contract-suite.md "Every store"), and how many share one reset of the server.
 */
const PER_OPERATION = readPositive('CONFORMANCE_PER_OPERATION') ?? 40
const BATCH = 20
/** Drafts the generator may spend to find one well-formed request (its walker reads no lookahead). */
const DRAFTS = 200
/** Calls spent to reach a scenario or a handler, since a rule may refuse a draft before either runs. */
const REACH_TRIES = 60
const MALFORMED_CODES = new Set(['validation_failed', 'invalid_json', 'bad_request'])
/** Scenarios that reshape a success and leave any other answer as the call gave it. */
const RESHAPING: ReadonlySet<ScenarioName> = new Set(['legacy-user-fields', 'refresh-incomplete'])

const KINDS = ['undocumented status', 'schema-invalid answer', 'well-formed request refused'] as const
type Kind = (typeof KINDS)[number]
interface Disagreement {
  kind: Kind
  operationId: string
  call: string
  detail: string
}

interface Entry {
  document: DocumentName
  doc: OpenApiDocument
  operation: GeneratedOperation
}

const validator = getProjectValidator()
const entries: Entry[] = validator.documents.flatMap(({ name, doc }) =>
  listOperations(doc).map((operation) => ({ document: name, doc, operation })),
)
const byOperationId = new Map(entries.map((entry) => [entry.operation.operationId, entry]))
const disagreements: Disagreement[] = []
const judged = { requests: 0, scenarios: 0, faults: 0 }

let live: LiveServer
let reader: StateReader
beforeAll(async () => {
  live = await startLiveServer()
  reader = createStateReader(live)
})
afterAll(async () => {
  const counts = KINDS.map((kind) => `${disagreements.filter((d) => d.kind === kind).length} ${kind}`)
  console.info(
    `Conformance over ${entries.length} operations of both documents: ${judged.requests} generated requests, ` +
      `${judged.scenarios} scenario calls, ${judged.faults} faults; ${counts.join(', ')} ` +
      `(CONFORMANCE_SEED=${SEED} replays it)`,
  )
  await live?.close()
})

function describeCall(request: GeneratedRequest): string {
  const body = typeof request.body === 'string' ? ` ${request.body.slice(0, 200)}` : ''
  return `${request.method} ${request.url.slice(0, 200)}${body}`
}

/**
 * A request the documents accept for `entry`, checked by Ajv rather than trusted to the generator.
 */
function wellFormed(rng: Rng, entry: Entry, pool: RequestPool, withBearer = false): GeneratedRequest {
  for (let draft = 0; draft < DRAFTS; draft += 1) {
    const request = generateRequest(rng, entry.operation, pool, { validShare: 1, doc: entry.doc })
    if (withBearer && entry.operation.bearer !== 'none')
      request.headers.authorization = `Bearer ${pool.accessToken}`
    if (validator.validateRequest(request).length === 0) return request
  }
  throw new Error(
    `Failed to generate a well-formed request for ${entry.operation.operationId} in ${DRAFTS} drafts (CONFORMANCE_SEED=${SEED}).`,
  )
}

function send(request: GeneratedRequest): Promise<Response> {
  return fetch(`${live.origin}${request.url}`, {
    method: request.method,
    headers: request.headers,
    redirect: 'manual',
    ...(request.body !== undefined && { body: request.body }),
  })
}

/** The `x-scenarios` of the response an operation documents under `status`. */
function scenariosOf(entry: Entry, status: string): unknown[] {
  const { template, method } = entry.operation
  const responses = entry.doc.paths![template]![method.toLowerCase() as 'get']!.responses!
  const { value } = resolveLocalRef<ResponseObject & { 'x-scenarios'?: unknown[] }>(
    entry.doc,
    responses[status]!,
    '#',
  )
  return value['x-scenarios'] ?? []
}

/**
 * Judges one answer and returns its disagreements. `scenario` must be named by the documented response.
 */
async function judge(
  entry: Entry,
  request: GeneratedRequest,
  response: Response,
  scenario?: ScenarioName,
): Promise<Disagreement[]> {
  const { operationId } = entry.operation
  const read = await readFetchResponse(request.method, request.url, response)
  const call = describeCall(request)
  const found: Disagreement[] = []
  const add = (kind: Kind, detail: string) => found.push({ kind, operationId, call, detail })
  const result = validator.validateResponse(read)
  const answer = `${read.status} ${JSON.stringify(read.body ?? '').slice(0, 200)}`
  if (result.documentedStatus === null || result.documentedStatus === 'default') {
    add('undocumented status', answer)
  } else if (result.errors.length > 0) {
    add('schema-invalid answer', `${answer}: ${result.errors.join('; ')}`)
  } else if (scenario && !scenariosOf(entry, result.documentedStatus).includes(scenario)) {
    add('schema-invalid answer', `${answer}: response ${result.documentedStatus} names no ${scenario}`)
  } else {
    recordCoverage(operationId as OperationId, result.documentedStatus)
  }
  const error = (read.body as { error?: unknown } | undefined)?.error
  const malformed = response.status === 400 && typeof error === 'string' && MALFORMED_CODES.has(error)
  if (malformed || response.status === 413 || response.status === 415)
    add('well-formed request refused', answer)
  return found
}

function expectAgreement(found: Disagreement[]): void {
  disagreements.push(...found)
  expect(found, `CONFORMANCE_SEED=${SEED} replays it`).toEqual([])
}

const operationSeed = (operationId: string) =>
  (SEED + [...operationId].reduce((sum, c) => sum * 31 + c.charCodeAt(0), 7)) >>> 0

describe(`conformance of the mock server to both documents (seed ${SEED})`, () => {
  test('every operation of both documents is generated for, and none leans on a default response', () => {
    const pairs = validator.listDocumentedPairs()
    expect(new Set(entries.map((entry) => entry.operation.operationId))).toEqual(
      new Set(pairs.map((pair) => pair.operationId)),
    )
    expect(pairs.filter((pair) => pair.status === 'default')).toEqual([])
  })

  test.each(entries.map((entry) => [entry.operation.operationId, entry] as const))(
    '%s: well-formed requests get documented, schema-valid answers, never a malformed refusal',
    async (_id, entry) => {
      // The control document's operations are the mock server's own: a target without /__mock has none of them,
      // but for liveness and readiness, which every server answers (docs/mock-server.md).
      if (entry.document === 'control' && !SERVED_IN_PRODUCTION.has(entry.operation.template))
        requireControl(live.api)
      const rng = createRng(operationSeed(entry.operation.operationId))
      const found: Disagreement[] = []
      let pool = await resetWithPool(live)
      for (let n = 0; n < PER_OPERATION; n += 1) {
        if (n > 0 && n % BATCH === 0) pool = await resetWithPool(live)
        const request = wellFormed(rng, entry, pool)
        found.push(...(await judge(entry, request, await send(request))))
        judged.requests += 1
      }
      expectAgreement(found)
    },
  )

  const scenarioPairs = Object.entries(SCENARIO_RULES).flatMap(([name, rule]) =>
    rule.operations.map((operationId) => [name as ScenarioName, operationId, rule.needsBearer] as const),
  )
  test.each(scenarioPairs)(
    '%s armed on %s answers on contract, with a response that names it',
    async (name, operationId, needsBearer) => {
      requireControl(live.api)
      const entry = byOperationId.get(operationId)!
      const rng = createRng(operationSeed(`${name} ${operationId}`))
      const pool = await resetWithPool(live)
      await live.mock.arm({
        name,
        operation: operationId,
        until_cleared: true,
        ...(name === 'latency' && { delay_ms: 1 }),
        ...(name === 'server-error' && { status: 503 }),
      } as ArmRequest)
      try {
        // Refused before the scenario ran, or not a success to reshape: try the next call.
        for (let tries = 0; tries < REACH_TRIES; tries += 1) {
          const since = await reader.lastSeq()
          const request = wellFormed(rng, entry, pool, needsBearer)
          const response = await send(request).catch(() => null)
          const fired = (await reader.journalSince(since)).some((call) => call.scenario === name)
          if (name === 'answer-lost' && fired) {
            // The scenario's promise is that no answer arrives: the connection closes without a status line.
            expect(response).toBeNull()
            judged.scenarios += 1
            return
          }
          if (!fired || !response || (RESHAPING.has(name) && response.status !== 200)) {
            await response?.body?.cancel()
            continue
          }
          judged.scenarios += 1
          // Latency delays the call's own answer: there is no response of its own to name it.
          expectAgreement(await judge(entry, request, response, name === 'latency' ? undefined : name))
          return
        }
      } finally {
        await live.mock.clearScenarios()
      }
      throw new Error(`No well-formed call of ${operationId} reached ${name} in ${REACH_TRIES} tries.`)
    },
  )

  test.each(entries.map((entry) => [entry.operation.operationId, entry] as const))(
    '%s: a fault in its handler is answered on contract',
    async (_id, entry) => {
      requireOwnServer(
        'swaps a handler of the in-process app for one that throws; the handlers of a running server cannot be reached from outside',
      )
      const { operationId } = entry.operation
      const rng = createRng(operationSeed(`fault ${operationId}`))
      const pool = await resetWithPool(live)
      const table = live.app.core.tables[entry.document === 'openapi' ? 'api' : 'control']
      const original = table[operationId]!
      let reached = false
      table[operationId] = () => {
        reached = true
        throw new Error('injected fault')
      }
      try {
        for (let tries = 0; tries < REACH_TRIES && !reached; tries += 1) {
          const request = wellFormed(rng, entry, pool, true)
          const response = await send(request)
          if (!reached) {
            await response.body?.cancel()
            continue
          }
          judged.faults += 1
          expect(response.status).toBe(500)
          expectAgreement(await judge(entry, request, response))
        }
      } finally {
        table[operationId] = original
      }
      expect(reached, `no well-formed call of ${operationId} reached its handler`).toBe(true)
    },
  )
})
