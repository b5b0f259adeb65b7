// The /__mock control surface (its own OpenAPI document, api/control.openapi.yaml): reset, clock, scenarios, mailbox,
// served build, state. The journal's GET /__mock/requests is the har feature's (har/requests.ts).
import type { operations } from '#api/control.gen.ts'
import type { OperationTable } from '../pipeline/types.ts'
import type { ControlClock } from '../shared/control-clock.ts'
import { isWritableDate } from '../shared/dates.ts'
import type { Mailbox } from './mailbox.ts'
import { SCENARIOS, type Scenarios } from './scenarios.ts'
import { settingsBody, type RuleSettings } from './settings.ts'
import { readMockState, type StateSources } from './state.ts'

type ControlOperations = Pick<
  operations,
  | 'resetMock'
  | 'getClock'
  | 'setClock'
  | 'listScenarios'
  | 'armScenario'
  | 'clearScenarios'
  | 'getMailbox'
  | 'setServedBuild'
  | 'getState'
  | 'getSettings'
>

export interface ControlDeps extends StateSources {
  clock: ControlClock
  scenarios: Scenarios
  mailbox: Mailbox
  /** The build QA made the server announce as newest (POST /__mock/build); the product's build operations read it. */
  build: { override: { id: string; timestamp: number } | null }
  /** Back to the seed state, every feature's (core.ts). */
  reset(): Promise<void>
  /** The product's rules' figures (core.ts hands them in): GET /__mock/settings. */
  settings: RuleSettings
}

export function createControlOperations(ops: ControlDeps): OperationTable<ControlOperations> {
  const { clock, scenarios, mailbox, build } = ops
  const readClock = () => ({ now: new Date(clock.now()).toISOString(), offset_ms: clock.offsetMs() })
  return {
    async resetMock() {
      await ops.reset()
      return { status: 200, body: { reset: true } }
    },
    getClock: () => ({ status: 200, body: readClock() }),
    setClock({ body }) {
      const target = 'advance_ms' in body ? clock.now() + body.advance_ms : Date.parse(body.now)
      // The schema cannot state the range: a clock moved past 9999 or before 0000 leaves what a date-time can write.
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
    listScenarios: async () => ({
      status: 200,
      body: {
        available: SCENARIOS.map(({ name, description, operations }) => ({
          name,
          description,
          operations: [...operations],
        })),
        armed: await scenarios.list(),
      },
    }),
    // Which fields go with which scenario, and which operations it matches, the schema has checked.
    armScenario: async ({ body }) => ({ status: 201, body: await scenarios.arm(body) }),
    clearScenarios: async ({ query }) => ({
      status: 200,
      body: { cleared: await scenarios.clear(query.email) },
    }),
    getMailbox: async ({ query }) => ({ status: 200, body: { messages: await mailbox.list(query.email) } }),
    setServedBuild({ body }) {
      build.override = { id: body.id, timestamp: clock.now() }
      return { status: 200, body: build.override }
    },
    getState: async () => ({ status: 200, body: await readMockState(ops) }),
    // Answered only outside production mode: there /__mock is 404 as a whole.
    getSettings: () => ({ status: 200, body: settingsBody(ops.settings, false) }),
  }
}
