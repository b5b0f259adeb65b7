/**
 * A Vitest reporter writing the run as CTRF JSON (ctrf.ts) to `outputFile.ctrf` (`--outputFile.ctrf=<file>`), as
 * `npm run test:unit` and `npm run test:contracts` ask (docs/decisions/018-reports.md).
 * @example vitest run --reporter=default --reporter=./harness/reports/vitest-ctrf.ts --outputFile.ctrf=reports/unit/ctrf.json
 */
import { relative, resolve } from 'node:path'
import type { Reporter, TestCase, TestModule, Vitest } from 'vitest/node'
import { buildCtrf, writeReport, type CtrfStatus, type CtrfTest } from './ctrf.ts'

const STATUS: Record<string, CtrfStatus> = {
  passed: 'passed',
  failed: 'failed',
  skipped: 'skipped',
  pending: 'pending',
}

/** One test case as CTRF has it. */
export function toCtrfTest(test: TestCase, root: string): CtrfTest {
  const result = test.result()
  const error = result.state === 'failed' ? result.errors?.[0] : undefined
  const note = result.state === 'skipped' ? result.note : undefined
  const { modelRun } = test.meta() as { modelRun?: unknown }
  return {
    name: test.fullName,
    status: STATUS[result.state] ?? 'other',
    duration: Math.round(test.diagnostic()?.duration ?? 0),
    filePath: relative(root, test.module.moduleId),
    suite: test.project.name,
    ...(error && { message: error.message, ...(error.stack && { trace: error.stack }) }),
    ...(note && { message: note }),
    ...(modelRun !== undefined && { extra: { modelRun } }),
  }
}

export default class CtrfReporter implements Reporter {
  private vitest: Vitest | undefined
  private start = Date.now()

  onInit(vitest: Vitest): void {
    this.vitest = vitest
    this.start = Date.now()
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const vitest = this.vitest
    const outputFile = vitest?.config.outputFile
    const file = typeof outputFile === 'object' ? outputFile.ctrf : undefined
    if (!vitest || !file) return
    const root = vitest.config.root
    const tests = testModules.flatMap((module) =>
      [...module.children.allTests()].map((test) => toCtrfTest(test, root)),
    )
    const report = buildCtrf({
      tool: 'vitest',
      version: vitest.version,
      start: this.start,
      stop: Date.now(),
      tests,
      // npm test runs this suite on another Node than the machine's (scripts/node-versions.ts): say which.
      environment: { testEnvironment: `node ${process.version}`, osPlatform: process.platform },
    })
    writeReport(resolve(root, file), JSON.stringify(report, null, 2))
  }
}
