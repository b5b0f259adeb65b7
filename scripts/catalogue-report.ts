/**
 * The error-catalogue coverage report, run at the end of `npm test`: a table of every row of
 * contracts/error-catalogue.ts with whether the contract suite and the e2e suite each reached it in
 * this run. Fails when a row was reached by neither, or by only one suite where both apply.
 * `--reset` (run at the start of `npm test`) clears the previous run's records.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { CATALOGUE_RESULTS_DIR } from '../contracts/catalogue-coverage.ts'
import { ERROR_CATALOGUE, type Suite } from '../contracts/error-catalogue.ts'

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
console.log(lines.join('\n'))
if (missing.length > 0) {
  console.error(
    `FAIL: ${missing.length} catalogue rows were not reached by every suite that applies: ${missing.map((row) => row.id).join(', ')}`,
  )
  process.exit(1)
}
console.log(`All ${ERROR_CATALOGUE.length} rows reached by every suite that applies.`)
