/**
 * What a model-based run reports: its figures (printed, and written into the contract reports through the test's
 * meta), and a failure as a script that replays it. Pure, but for reading the environment in `readModelOptions`.
 */
import type { RunDetails } from 'fast-check'
import type { ModelFigures } from '#harness/reports/model-runs.ts'

export type { ModelFigures }

export interface ReplayInput {
  runs: number
  seed: number
  /** fast-check's path of the failing run (`MODEL_PATH`), to replay it alone. */
  path?: string
  /** fast-check's replay path of the commands (`MODEL_REPLAY_PATH`), which replays the shrunk sequence. */
  replayPath?: string
}

declare module 'vitest' {
  interface TaskMeta {
    /** The figures of the model-based run this test made (contracts/model/), for the coverage report and CTRF. */
    modelRun?: ModelFigures
  }
}

/**
 * MODEL_RUNS (else `defaultRuns`), MODEL_SEED, MODEL_PATH and MODEL_REPLAY_PATH; a seed is drawn when none is given.
 */
export function readModelOptions(env: NodeJS.ProcessEnv = process.env, defaultRuns = 20): ReplayInput {
  const runs = readInteger('MODEL_RUNS', env.MODEL_RUNS) ?? defaultRuns
  if (runs < 1) throw new Error(`MODEL_RUNS is a count of runs, at least 1, not ${runs}.`)
  const seed = readInteger('MODEL_SEED', env.MODEL_SEED) ?? (Math.random() * 2 ** 31) | 0
  const path = env.MODEL_PATH?.trim()
  const replayPath = env.MODEL_REPLAY_PATH?.trim()
  return { runs, seed, ...(path && { path }), ...(replayPath && { replayPath }) }
}

function readInteger(name: string, value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined
  if (!/^-?\d+$/.test(value.trim())) throw new Error(`${name} is an integer, not ${JSON.stringify(value)}.`)
  return Number(value)
}

/** One line of figures, as the run prints it. */
export function formatFigures(figures: ModelFigures): string {
  const kinds = Object.entries(figures.byCommand)
    .sort((a, b) => b[1] - a[1])
    .map(([name, count]) => `${name} ${count}`)
    .join(', ')
  return [
    `Model-based run against ${figures.target}: ${figures.runs} runs, ${figures.commands} commands executed, longest sequence ${figures.longest}, seed ${figures.seed} (replay: MODEL_SEED=${figures.seed} MODEL_RUNS=${figures.runs}).`,
    `  ${figures.loose} answers too close to a figure to call exactly. Commands: ${kinds}.`,
  ].join('\n')
}

/** The shrunk sequence of a failed check (`ran`: its steps as they resolved), with the command line that replays it. */
export function formatFailure<Ts extends unknown[]>(
  input: ReplayInput & { target: string },
  details: RunDetails<Ts>,
  ran: string[],
): string {
  const [cmds] = (details.counterexample ?? []) as unknown as [Iterable<unknown> | undefined]
  const replayPath = /replayPath="([^"]*)"/.exec(String(cmds))?.[1]
  const env = [
    `MODEL_SEED=${details.seed}`,
    details.counterexamplePath && `MODEL_PATH=${details.counterexamplePath}`,
    replayPath && `MODEL_REPLAY_PATH='${replayPath}'`,
  ].filter(Boolean)
  const cause =
    details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)
  return [
    `The model-based run against ${input.target} failed after ${details.numRuns} runs (${details.numShrinks} shrinks): ${cause}`,
    `Shortest sequence (${ran.length} commands; the last one failed):`,
    ...ran.map((command, index) => `  ${index + 1}. ${command}`),
    `Replay it: ${env.join(' ')} npx vitest run --project contracts contracts/model/`,
  ].join('\n')
}
