/**
 * The mutation-testing summary, run by `npm run test:mutation` after Stryker.
 * Fails when a mutated file scores under 95 % or is missing from the report.
 */
import { existsSync, readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { formatScores, getFileScore, type ReportMutant } from './lib/mutation-scores.ts'

const MIN_SCORE = 95
const REPORT = 'reports/mutation/mutation.json'

// A computed specifier: the config is plain JavaScript that Stryker reads, with no declaration file for tsc.
const config = (await import(pathToFileURL('stryker.config.mjs').href)) as { default: { mutate: string[] } }
if (!existsSync(REPORT)) {
  console.error(`FAIL: no ${REPORT}; run Stryker first (npm run test:mutation).`)
  process.exit(1)
}
const report = JSON.parse(readFileSync(REPORT, 'utf8')) as {
  files: Record<string, { mutants: ReportMutant[] }>
}

const missing = config.default.mutate.filter((file) => !(file in report.files))
const scores = config.default.mutate
  .filter((file) => file in report.files)
  .map((file) => getFileScore(file, report.files[file]!.mutants))
console.log(formatScores(scores).join('\n'))

const low = scores.filter((row) => row.score !== null && row.score < MIN_SCORE)
if (missing.length > 0) console.error(`FAIL: not in the report: ${missing.join(', ')}`)
if (low.length > 0) {
  console.error(`FAIL: under ${MIN_SCORE} %: ${low.map((row) => row.file).join(', ')}`)
}
if (missing.length > 0 || low.length > 0) process.exit(1)
console.log(`Every file scores ${MIN_SCORE} % or more.`)
