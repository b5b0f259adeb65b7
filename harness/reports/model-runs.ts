/**
 * The figures of the contract suite's model-based runs (contracts/model/, docs/contract-suite.md "Model-based
 * runs") as the reports show them: `model-runs.json` beside the coverage report, and a table in it. Pure apart from
 * `writeModelRuns`.
 */
import { join } from 'node:path'
import { writeReport } from './ctrf.ts'
import type { ReportTable } from './tables.ts'

/** One model-based run (a test) and what it executed. */
export interface ModelFigures {
  /** Where the run went: `in-process (memory)`, or the target's URL. */
  target: string
  runs: number
  /** Commands executed over all runs. */
  commands: number
  /** The longest sequence one run executed. */
  longest: number
  seed: number
  /** Answers the model accepted loosely, a figure being too close to call. */
  loose: number
  /** Commands executed, by kind. */
  byCommand: Record<string, number>
}

export interface ModelRunEntry extends ModelFigures {
  /** The test that made the run, as `file > name`. */
  test: string
}

/** The table of model-based runs, or null when the run made none. */
export function modelRunsTable(entries: ModelRunEntry[]): ReportTable | null {
  if (entries.length === 0) return null
  return {
    title: 'Model-based runs',
    summary: [
      'Random command sequences checked against the model of the rules and the documents; MODEL_SEED=<seed> replays one.',
    ],
    columns: ['target', 'runs', 'commands executed', 'longest sequence', 'seed', 'commands'],
    rows: entries.map((entry) => [
      entry.target,
      String(entry.runs),
      String(entry.commands),
      String(entry.longest),
      String(entry.seed),
      Object.entries(entry.byCommand)
        .sort((a, b) => b[1] - a[1])
        .map(([name, count]) => `${name} ${count}`)
        .join(', '),
    ]),
  }
}

/** Writes `model-runs.json` into `dir` (an empty list when the run made none); returns its path. */
export function writeModelRuns(dir: string, entries: ModelRunEntry[]): string {
  const file = join(dir, 'model-runs.json')
  writeReport(file, JSON.stringify({ modelRuns: entries }, null, 2))
  return file
}
