/**
 * The mutation-testing summary, run by `npm run test:mutation` after Stryker.
 * Fails when a mutated file scores under 95 % or is missing from the report, when a survivor is not on the
 * equivalents list (stryker-equivalents.json), or when a listed equivalent no longer survives
 * (docs/benchmarks.md, "npm run test:mutation").
 */
import { existsSync, readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { parseEquivalents } from './lib/mutation-equivalents.ts'
import { summarizeMutation, type MutationReport } from './lib/mutation-summary.ts'

const MIN_SCORE = 95
const REPORT = 'reports/mutation/mutation.json'
const EQUIVALENTS = 'stryker-equivalents.json'

/** Ends the run with one line per reason, never a stack. */
function fail(...lines: string[]): never {
  for (const line of lines) console.error(`FAIL: ${line}`)
  process.exit(1)
}

/** A JSON file's value, or the run ends with a one-line reason. */
function readJson(file: string, hint: string): unknown {
  if (!existsSync(file)) fail(`no ${file}; ${hint}`)
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch (error) {
    return fail(`${file} is not JSON: ${(error as Error).message}`)
  }
}

// A computed specifier: the config is plain JavaScript that Stryker reads, with no declaration file for tsc.
const config = (await import(pathToFileURL('stryker.config.mjs').href)) as { default: { mutate: string[] } }
const report = readJson(REPORT, 'run Stryker first (npm run test:mutation).') as MutationReport
const parsed = parseEquivalents(
  readJson(EQUIVALENTS, 'it lists the survivors judged equivalent ([] for none).'),
)
if ('error' in parsed) fail(`${EQUIVALENTS}: ${parsed.error}`)

const { table, failures } = summarizeMutation(report, config.default.mutate, parsed.equivalents, MIN_SCORE)
console.log(table.join('\n'))
if (failures.length > 0) fail(...failures)
console.log(
  `Every file scores ${MIN_SCORE} % or more; every survivor is one of the ${parsed.equivalents.length} listed equivalents.`,
)
