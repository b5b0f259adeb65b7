import { describe, expect, test } from 'vitest'
import { summarize, type PlaywrightReport } from './stress-summary.ts'

const report = (statuses: Record<string, string>, errors = 0): PlaywrightReport => ({
  suites: [
    {
      title: 'session.spec.ts',
      specs: Object.entries(statuses).map(([title, status]) => ({
        title,
        tests: [{ projectName: 'chromium', status }],
      })),
      suites: [
        {
          title: 'nested',
          specs: [{ title: 'inner', tests: [{ projectName: 'chromium', status: 'expected' }] }],
        },
      ],
    },
  ],
  errors: Array.from({ length: errors }, () => ({ message: 'boom' })),
})

describe('the stress summary across runs', () => {
  test('counts each run and names what failed always and what failed only sometimes', () => {
    const summary = summarize([
      report({ a: 'expected', b: 'unexpected', c: 'unexpected' }),
      report({ a: 'expected', b: 'expected', c: 'unexpected' }, 1),
      report({ a: 'flaky', b: 'expected', c: 'unexpected' }),
    ])
    expect(summary.runs).toEqual([
      { passed: 2, failed: 2, flaky: 0, skipped: 0, errors: 0 },
      { passed: 3, failed: 1, flaky: 0, skipped: 0, errors: 1 },
      { passed: 2, failed: 1, flaky: 1, skipped: 0, errors: 0 },
    ])
    expect(summary.failed).toEqual(['session.spec.ts › c [chromium]'])
    expect(summary.flaky).toEqual(['session.spec.ts › a [chromium]', 'session.spec.ts › b [chromium]'])
  })

  test('all green: nothing failed, nothing flaky', () => {
    const summary = summarize([report({ a: 'expected' }), report({ a: 'expected' })])
    expect([summary.failed, summary.flaky]).toEqual([[], []])
    expect(summary.runs[0]).toEqual({ passed: 2, failed: 0, flaky: 0, skipped: 0, errors: 0 })
  })

  test('a test missing from a run (the run crashed before it) counts as flaky', () => {
    const summary = summarize([report({ a: 'expected', b: 'expected' }), report({ a: 'expected' })])
    expect(summary.flaky).toEqual(['session.spec.ts › b [chromium]'])
  })
})
