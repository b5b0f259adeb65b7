// The /__mock control surface (its own OpenAPI document, mock-server/control.openapi.yaml).
import type { operations } from '#api/control.gen.ts'
import { toHar } from '../har/har-export.ts'
import { parseSince, type Journal } from '../pipeline/journal.ts'
import { SCENARIOS } from './scenarios.ts'
import { readMockState } from './state.ts'
import type { OperationsContext } from '../product/operations/context.ts'
import { isWritableDate, validationFailed } from '../product/operations/context.ts'
import type { OperationTable } from '../pipeline/types.ts'

type ControlOperations = Pick<
  operations,
  | 'resetMock'
  | 'getClock'
  | 'setClock'
  | 'listScenarios'
  | 'armScenario'
  | 'clearScenarios'
  | 'getMailbox'
  | 'getRequests'
  | 'setServedBuild'
  | 'getState'
>

export function createControlOperations(ops: OperationsContext): OperationTable<ControlOperations> {
  const { clock, scenarios, mailbox, journal, build } = ops
  const readClock = () => ({ now: new Date(clock.now()).toISOString(), offset_ms: clock.offsetMs() })
  return {
    async resetMock() {
      await ops.reset()
      return { status: 200, body: { reset: true } }
    },
    getClock: () => ({ status: 200, body: readClock() }),
    setClock({ body }) {
      const target = 'advance_ms' in body ? clock.now() + body.advance_ms : Date.parse(body.now)
      // The schema cannot state the range: an advance from a clock set near the end of 9999, or a date whose
      // offset moves it out of year 0000 (`0000-01-01T00:00:00+00:01`), leaves the years a date-time can write.
      if (!isWritableDate(target)) {
        return {
          status: 400,
          body: {
            error: 'clock_out_of_range',
            message: 'The clock would leave the years 0000 to 9999 (UTC).',
          },
        }
      }
      if ('advance_ms' in body) clock.advance(body.advance_ms)
      else clock.set(target)
      return { status: 200, body: readClock() }
    },
    listScenarios: () => ({
      status: 200,
      body: {
        available: SCENARIOS.map(({ name, description, operations }) => ({
          name,
          description,
          operations: [...operations],
        })),
        armed: scenarios.list(),
      },
    }),
    // Which fields go with which scenario, and which operations it matches, the schema has checked.
    armScenario: ({ body }) => ({ status: 201, body: scenarios.arm(body) }),
    clearScenarios: ({ query }) => ({ status: 200, body: { cleared: scenarios.clear(query.email) } }),
    getMailbox: ({ query }) => ({ status: 200, body: { messages: mailbox.list(query.email) } }),
    setServedBuild({ body }) {
      build.override = { id: body.id, timestamp: clock.now() }
      return { status: 200, body: build.override }
    },
    getRequests: ({ query }) => readJournal(journal, query),
    getState: () => ({ status: 200, body: readMockState(ops) }),
  }
}

type GetRequests = OperationTable<Pick<operations, 'getRequests'>>['getRequests']

/**
 * GET /__mock/requests: the journal as JSON, or as an HTTP Archive with `format=har` (control/har.ts); the same in
 * replay mode (replay/replay-core.ts).
 */
export function readJournal(journal: Journal, query: Parameters<GetRequests>[0]['query']) {
  if (query.since !== undefined) {
    try {
      parseSince(query.since)
    } catch (error) {
      return validationFailed('since', (error as Error).message)
    }
  }
  const filter = { email: query.email, since: query.since }
  if (query.format === 'har') return { status: 200 as const, body: toHar(journal.records(filter)) }
  return { status: 200 as const, body: { requests: journal.list(filter) } }
}
