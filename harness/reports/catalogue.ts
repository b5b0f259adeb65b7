/**
 * The error-catalogue coverage report, run at the end of `npm test`.
 * Fails when a row was missed by a suite it applies to. `--reset` clears the previous run's records.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { CATALOGUE_RESULTS_DIR } from '#harness/catalogue-coverage.ts'
import { ERROR_CATALOGUE, type Suite } from '#api/error-catalogue.ts'
import { writeReport } from '#harness/reports/ctrf.ts'
import { toHtml, toMarkdown, type ReportDocument } from '#harness/reports/tables.ts'

/** Where the table is written as Markdown, JSON and HTML (docs/decisions/018-reports.md). */
const REPORT_DIR = fileURLToPath(new URL('../../reports/', import.meta.url))

if (process.argv.includes('--reset')) {
  rmSync(CATALOGUE_RESULTS_DIR, { recursive: true, force: true })
  process.exit(0)
}

const reached = new Set<string>()
if (existsSync(CATALOGUE_RESULTS_DIR)) {
  for (const file of readdirSync(CATALOGUE_RESULTS_DIR)) {
    for (const line of readFileSync(`${CATALOGUE_RESULTS_DIR}${file}`, 'utf8').split('\n').filter(Boolean)) {
      const { id, suite } = JSON.parse(line) as { id: string; suite: Suite }
      reached.add(`${suite}:${id}`)
    }
  }
}

const SUITES: Suite[] = ['contract', 'e2e']
const cell = (row: (typeof ERROR_CATALOGUE)[number], suite: Suite) =>
  !row.suites.includes(suite) ? 'n/a' : reached.has(`${suite}:${row.id}`) ? 'yes' : 'NO'
const width = Math.max(...ERROR_CATALOGUE.map((row) => row.id.length))
const lines = [
  'Error catalogue coverage (docs/behaviour.md: Messages)',
  `${'row'.padEnd(width)}  contract  e2e`,
  ...ERROR_CATALOGUE.map(
    (row) => `${row.id.padEnd(width)}  ${cell(row, 'contract').padEnd(8)}  ${cell(row, 'e2e')}`,
  ),
]
const missing = ERROR_CATALOGUE.filter((row) => SUITES.some((suite) => cell(row, suite) === 'NO'))
const verdict =
  missing.length > 0
    ? `FAIL: ${missing.length} catalogue rows were not reached by every suite that applies: ${missing.map((row) => row.id).join(', ')}`
    : `All ${ERROR_CATALOGUE.length} rows reached by every suite that applies.`
const report: ReportDocument = {
  title: 'Error catalogue coverage',
  summary: [
    verdict,
    'The rows of docs/behaviour.md: Messages, and whether each suite that applies reached them in this run.',
  ],
  tables: [
    {
      title: 'Rows',
      summary: [],
      columns: ['row', 'contract', 'e2e'],
      rows: ERROR_CATALOGUE.map((row) => [row.id, cell(row, 'contract'), cell(row, 'e2e')]),
    },
  ],
}
writeReport(`${REPORT_DIR}catalogue.md`, toMarkdown(report))
writeReport(`${REPORT_DIR}catalogue.html`, toHtml(report))
writeReport(
  `${REPORT_DIR}catalogue.json`,
  JSON.stringify(
    {
      verdict,
      rows: ERROR_CATALOGUE.map((row) => ({
        id: row.id,
        contract: cell(row, 'contract'),
        e2e: cell(row, 'e2e'),
      })),
    },
    null,
    2,
  ),
)
console.log(lines.join('\n'))
if (missing.length > 0) {
  console.error(verdict)
  process.exit(1)
}
console.log(`${verdict} (reports/catalogue.md, .json, .html)`)
