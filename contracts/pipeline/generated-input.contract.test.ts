// Generated input at volume (contracts/support/request-generator.ts), sent to a live mock server one at a time.
// Every answer is below 500 and on contract; where /__mock is, the journal records each call once, and a 4xx leaves
// the state alone.
//
// "The state" is what GET /__mock/state answers (mock-server/src/control/state.ts).
// A refusal changes none of it, except the counters the rules keep on purpose: wrong-code attempts and a reused
// refresh token's revoked family (docs/decisions/004-tokens-sessions-codes.md, docs/security/codes.md).
// Lock-out counts live outside the store (docs/security/lockout.md).
//
// Seeded: GENERATED_INPUT_SEED=<n> replays a run. GENERATED_INPUT_REQUESTS=<n> sends n instead of 10,000.
import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { requireControl, startLiveServer, type LiveServer } from '#contracts/fixtures.ts'
import {
  createRng,
  generateRequest,
  listOperations,
  type GeneratedOperation,
  type GeneratedRequest,
  type RequestPool,
} from '#contracts/support/request-generator.ts'
import { requireValidFetchResponse } from '#contracts/support/api.ts'
import type { MockState } from '#api/mock-client.ts'
import { getProjectValidator } from '#contracts/support/openapi-validator.ts'
import { countTargetRequest } from '#contracts/support/target.ts'
import { resetWithPool } from '#contracts/support/request-pool.ts'
import { createStateReader, type StateReader } from '#contracts/support/server-state.ts'

const MIN_REQUESTS = readRequestCount(process.env.GENERATED_INPUT_REQUESTS) ?? 10_000
const BATCH = 100 // requests between two resets, so the state stays small and every batch starts alike
const SEED = process.env.GENERATED_INPUT_SEED ? Number(process.env.GENERATED_INPUT_SEED) : randomInt(2 ** 31)
const operations = listOperations()
const PER_OPERATION = Math.ceil(MIN_REQUESTS / operations.length)

function readRequestCount(raw: string | undefined): number | null {
  if (!raw?.trim()) return null
  const count = Number(raw)
  if (!Number.isSafeInteger(count) || count < 1)
    throw new Error(`GENERATED_INPUT_REQUESTS must be a positive whole number, not ${JSON.stringify(raw)}.`)
  return count
}

/** Fields a refusal may change, per (operation, status, error): the counters the rules keep. */
/** A wrong code: its attempts, its decoy, and the guesses counted for its address and purpose. */
const WRONG_CODE = {
  fields: { codes: ['attempts', 'burned'], guesses: ['times'] },
  newCodes: true,
  newGuesses: true,
}
const ALLOWED_CHANGES: Record<
  string,
  { fields: Record<string, string[]>; newCodes?: boolean; newGuesses?: boolean }
> = {
  'verifyOtp 400 invalid_code': WRONG_CODE,
  'verifyOtp 429 too_many_attempts': WRONG_CODE,
  // The guess that reaches the ceiling counts; past it, and for the per-client limit, nothing changes.
  'verifyOtp 429 rate_limited': WRONG_CODE,
  'refreshToken 401 refresh_reused': {
    fields: { sessions: ['revokedAt', 'revokedReason'], refreshTokens: ['graceBox'] },
  },
}

let live: LiveServer
let reader: StateReader
let pool: RequestPool
let sent = 0
let started = 0
beforeAll(async () => {
  live = await startLiveServer()
  reader = createStateReader(live)
  started = performance.now()
})
afterAll(async () => {
  const seconds = (performance.now() - started) / 1000
  console.info(
    `Generated input: ${sent} requests over ${operations.length} operations in ${seconds.toFixed(1)} s, ` +
      `seed ${SEED} (GENERATED_INPUT_SEED=${SEED} replays it)`,
  )
  await live?.close()
})

type State = Record<string, unknown[]>

/**
 * The state (GET /__mock/state's MockState, as JSON text) as records by collection.
 */
function readRecords(text: string): State {
  const { store, clock, ...rest } = JSON.parse(text) as MockState
  return { ...store, ...rest, clock: [clock.offset_ms] } as State
}

/** The state without what `allowed` lets change, so two states compare equal. */
function project(state: State, before: State, allowed: (typeof ALLOWED_CHANGES)[string] | undefined): string {
  const known = new Set(before.codes!.map((code) => (code as { id: string }).id))
  const guessed = new Set(before.guesses!.map((log) => (log as { key: string }).key))
  const out: State = {}
  for (const [name, records] of Object.entries(state)) {
    const blank = allowed?.fields[name] ?? []
    const kept =
      name === 'codes' && allowed?.newCodes
        ? records.filter((code) => known.has((code as { id: string }).id))
        : name === 'guesses' && allowed?.newGuesses
          ? records.filter((log) => guessed.has((log as { key: string }).key))
          : records
    out[name] = kept.map((record) =>
      blank.length === 0
        ? record
        : Object.fromEntries(Object.entries(record as object).filter(([k]) => !blank.includes(k))),
    )
  }
  return JSON.stringify(out)
}

/** Fails when a refusal changed more than `allowed` lets it. */
function expectUnchanged(
  beforeText: string,
  afterText: string,
  allowed: (typeof ALLOWED_CHANGES)[string] | undefined,
): void {
  if (afterText === beforeText) return
  const before = readRecords(beforeText)
  const after = readRecords(afterText)
  expect(project(after, before, allowed), 'a refused call changed the state').toBe(
    project(before, before, allowed),
  )
}

function describeRequest(request: GeneratedRequest): string {
  const body =
    request.body === undefined
      ? ''
      : typeof request.body === 'string'
        ? JSON.stringify(request.body.length > 300 ? `${request.body.slice(0, 300)}…` : request.body)
        : `bytes ${Buffer.from(request.body).toString('hex').slice(0, 200)}`
  return `${request.method} ${request.url.slice(0, 300)} [${request.mutation}] headers ${JSON.stringify(request.headers).slice(0, 300)} body ${body}`
}

/** What one request showed: a fault in its answer, or in what it left in the journal and the state. */
interface Findings {
  answer?: string
  records?: string
}

/** Runs `check` and returns its failure's message, or undefined when it passed. */
async function failureOf(check: () => unknown): Promise<string | undefined> {
  try {
    await check()
    return undefined
  } catch (error) {
    return (error as Error).message
  }
}

/**
 * Sends `request` and checks its answer; with `records`, also its journal entry and, for a refusal, the state.
 * `records` holds the state and journal seq before it, and is moved on to after it.
 */
async function send(
  request: GeneratedRequest,
  records: { state: string; seq: number } | null,
): Promise<Findings> {
  const response = await fetch(`${live.origin}${request.url}`, {
    method: request.method,
    headers: request.headers,
    redirect: 'manual',
    ...(request.body !== undefined && { body: request.body }),
  })
  const url = new URL(response.url)
  const path = `${url.pathname}${url.search}`
  const text = await response.clone().text()
  // Both read after the answer: against a running server they are two requests, sent together.
  const read = records ? Promise.all([reader.journalSince(records.seq), reader.state()]) : null
  let operationId: string | null = null
  const answer = await failureOf(async () => {
    expect(response.status, `a 5xx: ${text}`).toBeLessThan(500)
    if (getProjectValidator().matchOperation(request.method, path)) {
      operationId = (await requireValidFetchResponse(request.method, path, response)).operationId
    } else {
      // No operation: a 404 or 405 in the error shape, not journaled.
      // Not recorded as undocumented, or the coverage table would list every such path.
      expect([404, 405]).toContain(response.status)
      expect(response.headers.get('cache-control')).toBe('no-store')
      expect(typeof JSON.parse(text).error).toBe('string')
    }
  })
  if (!read || !records) return { answer }
  if (answer) return (await read.catch(() => undefined), { answer })
  const [entries, after] = await read
  const before = records.state
  records.state = after
  records.seq = entries.at(-1)?.seq ?? records.seq
  const recorded = await failureOf(() => {
    expect(entries.map((e) => [e.operation, e.status])).toEqual(
      operationId ? [[operationId, response.status]] : [],
    )
    if (response.status >= 400) {
      const error = text ? (JSON.parse(text) as { error?: string }).error : undefined
      expectUnchanged(before, after, ALLOWED_CHANGES[`${operationId} ${response.status} ${error}`])
    }
  })
  return { records: recorded }
}

/** The first request of an operation's run that failed each part, described so that it can be replayed. */
interface OperationRun {
  sent: number
  answer?: string
  records?: string
}

/**
 * Sends an operation's share of generated requests. The journal and the state are read only where /__mock is, so
 * the answers are checked against any target. Stops at the first faulty answer; a faulty record is kept, and the
 * run goes on.
 */
async function runOperation(
  operation: GeneratedOperation,
  index: number,
  withRecords: boolean,
): Promise<OperationRun> {
  const seed = (SEED + index * 7919) >>> 0
  const rng = createRng(seed)
  const run: OperationRun = { sent: 0 }
  let records: { state: string; seq: number } | null = null
  // Without /__mock nothing is reset, and a fresh pool each batch would spend the client's rate limits on sign-ups.
  const batch = withRecords ? BATCH : PER_OPERATION
  for (let n = 0; n < PER_OPERATION && !run.answer; n += 1) {
    if (n % batch === 0) {
      pool = await resetWithPool(live)
      if (withRecords) {
        const [state, seq] = await Promise.all([reader.state(), reader.lastSeq()])
        records = { state, seq }
      }
    }
    const request = generateRequest(rng, operation, pool)
    const found = await send(request, records)
    const replay = (message: string) =>
      `Generated request ${n} of ${operation.operationId} failed (GENERATED_INPUT_SEED=${SEED} replays it):\n${describeRequest(request)}\n${message}`
    if (found.answer) run.answer = replay(found.answer)
    if (found.records) run.records ??= replay(found.records)
    run.sent += 1
    sent += 1
  }
  return run
}

describe(`generated requests from openapi.yaml (seed ${SEED})`, () => {
  test(`cover every operation, at least ${MIN_REQUESTS.toLocaleString('en-US')} in all`, () => {
    expect(operations.length).toBeGreaterThanOrEqual(17)
    expect(PER_OPERATION * operations.length).toBeGreaterThanOrEqual(MIN_REQUESTS)
  })

  // Each operation's requests are sent once, by whichever of its two checks comes first.
  const runs = new Map<string, Promise<OperationRun>>()
  const runOf = async (operation: GeneratedOperation, index: number): Promise<OperationRun> => {
    const withRecords = live.api.noControl === undefined
    if (!runs.has(operation.operationId))
      runs.set(operation.operationId, runOperation(operation, index, withRecords))
    const run = await runs.get(operation.operationId)!
    // The requests went to the target under whichever check came first: they count for both.
    if (run.sent > 0) countTargetRequest()
    return run
  }
  const cases = operations.map((operation, index) => [operation.operationId, operation, index] as const)

  test.each(cases)(
    '%s: no 5xx, every answer on contract',
    async (_name, operation, index) => {
      const run = await runOf(operation, index)
      if (run.answer) throw new Error(run.answer)
      expect(run.sent).toBe(PER_OPERATION)
    },
    // A hang guard for a loaded machine, not a time limit on the run: the run's time is printed.
    180_000,
  )

  test.each(cases)(
    '%s: the journal records each call once, and refusals change nothing',
    async (_name, operation, index) => {
      // The journal and the state are read through /__mock: without it, the answers alone are checked.
      requireControl(live.api)
      const run = await runOf(operation, index)
      if (run.records) throw new Error(run.records)
      expect(run.sent).toBeGreaterThan(0)
    },
    180_000,
  )
})
