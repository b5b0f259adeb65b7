import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FullConfig, TestCase, TestResult } from '@playwright/test/reporter'
import { expect, test } from 'vitest'
import PlaywrightCtrfReporter from './playwright-ctrf.ts'

function fakeTest(title: string, skipNote?: string): TestCase {
  return {
    titlePath: () => ['', 'chromium', 'e2e/auth.spec.ts', title],
    location: { file: join(process.cwd(), 'e2e/auth.spec.ts'), line: 1, column: 1 },
    annotations: skipNote ? [{ type: 'skip', description: skipNote }] : [],
    parent: { project: () => ({ name: 'chromium' }) },
  } as unknown as TestCase
}

const result = (status: TestResult['status'], retry = 0, message?: string): TestResult =>
  ({
    status,
    retry,
    duration: 1234.4,
    errors: message ? [{ message, stack: `Error: ${message}\n    at x` }] : [],
  }) as unknown as TestResult

test('each test counts once, by its last attempt: a retry that passed is passed and flaky; a timeout is a failure', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ctrf-'))
  try {
    const outputFile = join(dir, 'e2e', 'ctrf.json')
    const reporter = new PlaywrightCtrfReporter({ outputFile })
    reporter.onBegin({ version: '1.99.0' } as FullConfig)
    const flaky = fakeTest('signs in')
    reporter.onTestEnd(flaky, result('failed', 0, 'first try'))
    reporter.onTestEnd(flaky, result('passed', 1))
    reporter.onTestEnd(fakeTest('times out'), result('timedOut', 0, 'Test timeout of 30000ms exceeded.'))
    reporter.onTestEnd(fakeTest('not here', 'needs a second browser'), result('skipped'))
    reporter.onEnd()

    const report = JSON.parse(readFileSync(outputFile, 'utf8'))
    expect(report).toMatchObject({
      reportFormat: 'CTRF',
      results: {
        tool: { name: 'playwright', version: '1.99.0' },
        summary: { tests: 3, passed: 1, failed: 1, skipped: 1, pending: 0, other: 0 },
      },
    })
    expect(report.results.tests).toEqual([
      {
        name: 'e2e/auth.spec.ts > signs in',
        status: 'passed',
        duration: 1234,
        filePath: 'e2e/auth.spec.ts',
        suite: 'chromium',
        retries: 1,
        flaky: true,
      },
      expect.objectContaining({
        name: 'e2e/auth.spec.ts > times out',
        status: 'failed',
        flaky: false,
        message: 'Test timeout of 30000ms exceeded.',
        trace: expect.stringContaining('Error: Test timeout'),
      }),
      expect.objectContaining({ status: 'skipped', message: 'needs a second browser' }),
    ])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
