/**
 * The end of `npm test` (docs/decisions/018-reports.md): checks that this run wrote every report CI reads.
 * `--reset` removes the previous run's, so a suite that wrote nothing cannot hide behind an old file.
 */
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readCtrf, writeReport } from './ctrf.ts'
import { toHtml, type ReportDocument } from './tables.ts'

const REPORTS = fileURLToPath(new URL('../../reports/', import.meta.url))

const SUITES = ['unit', 'contracts', 'e2e'] as const
/** Every file a whole `npm test` writes, relative to reports/. */
export const EXPECTED_FILES = [
  ...SUITES.flatMap((suite) => [`${suite}/junit.xml`, `${suite}/ctrf.json`]),
  'contracts/coverage.json',
  'contracts/coverage.md',
  'contracts/coverage.html',
  'contracts/model-runs.json',
  'e2e/html/index.html',
  'catalogue.json',
  'catalogue.md',
  'catalogue.html',
]

/** What this run wrote, what is missing, and a line per suite. Pure apart from reading `dir`. */
export function readReports(dir: string): { missing: string[]; lines: string[]; rows: string[][] } {
  const missing = EXPECTED_FILES.filter((file) => !existsSync(join(dir, file)))
  const rows: string[][] = []
  for (const suite of SUITES) {
    const file = join(dir, suite, 'ctrf.json')
    if (!existsSync(file)) continue
    try {
      const { summary, environment } = readCtrf(file).results
      const seconds = `${((summary.stop - summary.start) / 1000).toFixed(1)} s`
      rows.push([
        suite,
        String(summary.tests),
        String(summary.passed),
        String(summary.failed),
        String(summary.skipped),
        environment?.testEnvironment ? `${seconds}, ${environment.testEnvironment}` : seconds,
      ])
    } catch {
      missing.push(`${suite}/ctrf.json (unreadable)`)
    }
  }
  const lines = rows.map(
    ([suite, tests, passed, failed, skipped, time]) =>
      `${suite!.padEnd(9)} ${tests} tests: ${passed} passed, ${failed} failed, ${skipped} skipped (${time})`,
  )
  return { missing, lines, rows }
}

function indexPage(rows: string[][]): ReportDocument {
  return {
    title: 'Test reports',
    summary: [
      'JUnit XML and CTRF JSON of each suite: reports/<suite>/junit.xml and ctrf.json.',
      'Contract coverage: reports/contracts/coverage.html (.md, .json), the model-based runs among it and in model-runs.json. Error catalogue: reports/catalogue.html (.md, .json).',
      "Playwright's report: reports/e2e/html/index.html; traces and screenshots of failed tests: reports/e2e/artifacts/.",
    ],
    tables: [
      {
        title: 'Suites',
        summary: [],
        columns: ['suite', 'tests', 'passed', 'failed', 'skipped', 'time'],
        rows,
      },
    ],
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--reset')) {
    for (const entry of [...SUITES, 'catalogue.json', 'catalogue.md', 'catalogue.html', 'index.html'])
      rmSync(join(REPORTS, entry), { recursive: true, force: true })
  } else {
    const { missing, lines, rows } = readReports(REPORTS)
    writeReport(join(REPORTS, 'index.html'), toHtml(indexPage(rows)))
    console.log(['Reports (reports/index.html):', ...lines.map((line) => `  ${line}`)].join('\n'))
    if (missing.length > 0) {
      console.error(`FAIL: reports missing from this run: ${missing.join(', ')}`)
      process.exitCode = 1
    }
  }
}
