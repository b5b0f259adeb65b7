/**
 * CTRF (Common Test Report Format, ctrf.io) reports of the unit, contract and e2e suites, written under `reports/`
 * (docs/decisions/018-reports.md). Pure apart from `writeReport`.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'

export type CtrfStatus = 'passed' | 'failed' | 'skipped' | 'pending' | 'other'

export interface CtrfTest {
  name: string
  status: CtrfStatus
  /** Milliseconds. */
  duration: number
  /** The file the test is in, relative to the repository. */
  filePath?: string
  /** The failure's message, or a skipped test's note (a contract check not checkable against a target says why). */
  message?: string
  trace?: string
  /** How many times it was retried (Playwright). */
  retries?: number
  flaky?: boolean
  suite?: string
  /** What the test measured beyond pass or fail (a model-based run's figures: harness/reports/model-runs.ts). */
  extra?: Record<string, unknown>
}

export interface CtrfReport {
  reportFormat: 'CTRF'
  specVersion: '0.0.0'
  results: {
    tool: { name: string; version?: string }
    summary: {
      tests: number
      passed: number
      failed: number
      pending: number
      skipped: number
      other: number
      /** Epoch milliseconds. */
      start: number
      stop: number
    }
    tests: CtrfTest[]
    environment?: Record<string, string>
  }
}

/**
 * @example buildCtrf({ tool: 'vitest', start, stop, tests: [{ name: 'a > b', status: 'passed', duration: 3 }] })
 */
export function buildCtrf({
  tool,
  version,
  start,
  stop,
  tests,
  environment,
}: {
  tool: string
  version?: string
  start: number
  stop: number
  tests: CtrfTest[]
  environment?: Record<string, string>
}): CtrfReport {
  const count = (status: CtrfStatus) => tests.filter((test) => test.status === status).length
  return {
    reportFormat: 'CTRF',
    specVersion: '0.0.0',
    results: {
      tool: { name: tool, ...(version && { version }) },
      summary: {
        tests: tests.length,
        passed: count('passed'),
        failed: count('failed'),
        pending: count('pending'),
        skipped: count('skipped'),
        other: count('other'),
        start,
        stop,
      },
      tests,
      ...(environment && { environment }),
    },
  }
}

/** The CTRF report in `file`. */
export const readCtrf = (file: string): CtrfReport => JSON.parse(readFileSync(file, 'utf8')) as CtrfReport

/** Writes `text` to `file`, making its folder. */
export function writeReport(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text.endsWith('\n') ? text : `${text}\n`)
}
