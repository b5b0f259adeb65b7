// Generated input at volume (contracts/support/request-generator.ts), sent to a live mock server one at a time.
// Every answer is below 500 and on contract, the journal records each call once, and a 4xx leaves the state alone.
//
// "The state" is what GET /__mock/state answers (mock-server/src/control/state.ts).
// A refusal changes none of it, except the counters the rules keep on purpose: wrong-code attempts and a reused
// refresh token's revoked family (docs/decisions/004-tokens-sessions-codes.md, docs/security/codes.md).
// Lock-out counts live outside the store (docs/security/lockout.md).
//
// Seeded: GENERATED_INPUT_SEED=<n> replays a run. GENERATED_INPUT_REQUESTS=<n> sends n instead of 10,000.
import { randomInt } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startLiveServer, type LiveServer } from '#contracts/fixtures.ts'
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

/**
 * Sends `request` and checks its answer, its journal entry and, for a refusal, the state.
 * Returns the state and journal seq after it, for the next request.
 */
async function send(
  request: GeneratedRequest,
  before: string,
  since: number,
): Promise<{ state: string; seq: number }> {
  const response = await fetch(`${live.origin}${request.url}`, {
    method: request.method,
    headers: request.headers,
    redirect: 'manual',
    ...(request.body !== undefined && { body: request.body }),
  })
  const url = new URL(response.url)
  const path = `${url.pathname}${url.search}`
  const text = await response.clone().text()
  expect(response.status, `a 5xx: ${text}`).toBeLessThan(500)
  // Both read after the answer: against a running server they are two requests, sent together.
  const [entries, after] = await Promise.all([reader.journalSince(since), reader.state()])
  let operationId: string | null = null
  if (getProjectValidator().matchOperation(request.method, path)) {
    operationId = (await requireValidFetchResponse(request.method, path, response)).operationId
    expect(entries.map((e) => [e.operation, e.status])).toEqual([[operationId, response.status]])
  } else {
    // No operation: a 404 or 405 in the error shape, not journaled.
    // Not recorded as undocumented, or the coverage table would list every such path.
    expect([404, 405]).toContain(response.status)
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(typeof JSON.parse(text).error).toBe('string')
    expect(entries).toEqual([])
  }
  if (response.status >= 400) {
    const error = text ? (JSON.parse(text) as { error?: string }).error : undefined
    const allowed = ALLOWED_CHANGES[`${operationId} ${response.status} ${error}`]
    expectUnchanged(before, after, allowed)
  }
  return { state: after, seq: entries.at(-1)?.seq ?? since }
}

async function runOperation(operation: GeneratedOperation, index: number): Promise<void> {
  const seed = (SEED + index * 7919) >>> 0
  const rng = createRng(seed)
  let state = ''
  let seq = 0
  for (let n = 0; n < PER_OPERATION; n += 1) {
    if (n % BATCH === 0) {
      pool = await resetWithPool(live)
      ;[state, seq] = await Promise.all([reader.state(), reader.lastSeq()])
    }
    const request = generateRequest(rng, operation, pool)
    try {
      ;({ state, seq } = await send(request, state, seq))
    } catch (error) {
      const message = `Generated request ${n} of ${operation.operationId} failed (GENERATED_INPUT_SEED=${SEED} replays it):\n${describeRequest(request)}\n${(error as Error).message}`
      throw new Error(message, { cause: error })
    }
    sent += 1
  }
}

describe(`generated requests from openapi.yaml (seed ${SEED})`, () => {
  test(`cover every operation, at least ${MIN_REQUESTS.toLocaleString('en-US')} in all`, () => {
    expect(operations.length).toBeGreaterThanOrEqual(17)
    expect(PER_OPERATION * operations.length).toBeGreaterThanOrEqual(MIN_REQUESTS)
  })

  test.each(operations.map((operation, index) => [operation.operationId, operation, index] as const))(
    '%s: no 5xx, every answer on contract, refusals change nothing',
    async (_name, operation, index) => {
      await runOperation(operation, index)
    },
    // A hang guard for a loaded machine, not a time limit on the run: the run's time is printed.
    180_000,
  )
})
