/**
 * A Playwright reporter writing the run as CTRF JSON (ctrf.ts) to its `outputFile` option (e2e/playwright.config.ts:
 * `reports/e2e/ctrf.json`). A test retried to a pass is `passed` and `flaky`; each test counts once, by its last
 * attempt (docs/decisions/018-reports.md).
 */
import { relative } from 'node:path'
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter'
import { buildCtrf, writeReport, type CtrfStatus, type CtrfTest } from './ctrf.ts'

const STATUS: Record<TestResult['status'], CtrfStatus> = {
  passed: 'passed',
  failed: 'failed',
  timedOut: 'failed',
  interrupted: 'other',
  skipped: 'skipped',
}

/** A test's last attempt as CTRF has it. */
export function toCtrfTest(test: TestCase, result: TestResult, root: string): CtrfTest {
  const error = result.errors[0]
  const skipNote = test.annotations.find((annotation) => annotation.type === 'skip')?.description
  const projectName = test.parent.project()?.name
  return {
    name: test.titlePath().filter(Boolean).slice(1).join(' > '),
    status: STATUS[result.status],
    duration: Math.round(result.duration),
    filePath: relative(root, test.location.file),
    ...(projectName && { suite: projectName }),
    retries: result.retry,
    flaky: result.status === 'passed' && result.retry > 0,
    ...(error?.message && { message: error.message }),
    ...(error?.stack && { trace: error.stack }),
    ...(result.status === 'skipped' && skipNote && { message: skipNote }),
  }
}

export default class PlaywrightCtrfReporter implements Reporter {
  private readonly outputFile: string
  private root = process.cwd()
  private start = Date.now()
  private version: string | undefined
  private readonly last = new Map<TestCase, TestResult>()

  constructor({ outputFile }: { outputFile: string }) {
    this.outputFile = outputFile
  }

  onBegin(config: FullConfig): void {
    this.root = process.cwd()
    this.version = config.version
    this.start = Date.now()
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.last.set(test, result)
  }

  onEnd(): void {
    const tests = [...this.last].map(([test, result]) => toCtrfTest(test, result, this.root))
    const report = buildCtrf({
      tool: 'playwright',
      ...(this.version && { version: this.version }),
      start: this.start,
      stop: Date.now(),
      tests,
    })
    writeReport(this.outputFile, JSON.stringify(report, null, 2))
  }

  printsToStdio(): boolean {
    return false
  }
}
