/**
 * Runs the model-based suite: fast-check generates command sequences (contracts/model/commands.ts), each run starts
 * from a reset server and a fresh model, and a failure shrinks to the shortest sequence, printed with the line that
 * replays it (docs/contract-suite.md, "Model-based runs").
 */
import { randomUUID } from 'node:crypto'
import fc from 'fast-check'
import type { MockClient } from '#api/mock-client.ts'
import type { ContractAgent } from '#contracts/support/api.ts'
import { NotCheckableError, notCheckable } from '#contracts/support/target.ts'
import { commandsArbitrary, MAX_COMMANDS } from '#contracts/model/commands.ts'
import { createModel } from '#contracts/model/model.ts'
import type { World } from '#contracts/model/world.ts'
import { formatFailure, type ModelFigures, type ReplayInput } from '#contracts/model/figures.ts'

/** The server of one run: its validating agent, and its control client (null without a usable /__mock). */
export interface ModelServer {
  api: ContractAgent
  mock: MockClient | null
}

export interface ModelRunOptions extends ReplayInput {
  /** The server each run starts from: a fresh in-process app, or the target after /__mock/reset. */
  serverForRun: () => Promise<ModelServer>
  /** Whether the runs may use /__mock (the mailbox, the clock). */
  control: boolean
  /** Whether the runs can read the codes the target mails without /__mock (default: as `control`). */
  codes?: boolean
  /** Where the run went: `in-process (memory)`, or the target's URL. */
  target: string
}

/** A vitest skip (`context.skip`, as "not checkable" ends a check) or the error that stands for it outside a test. */
const isSkip = (error: unknown): boolean =>
  error instanceof NotCheckableError || (error as { code?: unknown } | null)?.code === 'VITEST_PENDING'

/**
 * Runs `runs` sequences and returns the figures; throws with the shrunk sequence and its replay line on a failure.
 * @example const figures = await runModel({ serverForRun, control: true, target: 'in-process (memory)', runs: 25, seed: 42 })
 */
export async function runModel(options: ModelRunOptions): Promise<ModelFigures> {
  const { control, runs, seed } = options
  const codes = options.codes ?? control
  const prefix = randomUUID().slice(0, 8)
  const figures: ModelFigures = {
    target: options.target,
    runs: 0,
    commands: 0,
    longest: 0,
    seed,
    loose: 0,
    byCommand: {},
  }
  let runIndex = 0
  let skipped: string | null = null
  // The steps of the last failing run: fast-check reports the last failing sequence it found, the shrunk one.
  let failedSteps: string[] = []
  const property = fc.asyncProperty(commandsArbitrary(control, options.replayPath, codes), async (cmds) => {
    if (skipped !== null) return
    const world: World = { ...(await options.serverForRun()), loose: 0, steps: [] }
    const executed = world.steps
    const model = createModel(`${prefix}-${runIndex++}`, control, codes)
    try {
      await fc.asyncModelRun(() => ({ model, real: world }), cmds)
    } catch (error) {
      if (!isSkip(error)) {
        failedSteps = [...executed]
        throw error
      }
      skipped = (error as Error).message
    } finally {
      figures.runs += 1
      figures.commands += executed.length
      figures.longest = Math.max(figures.longest, executed.length)
      figures.loose += world.loose
      for (const name of executed) {
        const key = name.replace(/\(.*$/, '')
        figures.byCommand[key] = (figures.byCommand[key] ?? 0) + 1
      }
    }
  })
  const details = await fc.check(property, {
    numRuns: runs,
    seed,
    ...(options.path && { path: options.path }),
  })
  if (skipped !== null) notCheckable(`the model-based run was cut short: ${skipped}`)
  if (details.failed) throw new Error(formatFailure(options, details, failedSteps))
  return figures
}

export { MAX_COMMANDS }
