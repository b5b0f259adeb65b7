/**
 * The mutation-testing summary, run by `npm run test:mutation` and `npm run test:mutation:server` after Stryker:
 * `tsx scripts/mutation-report.ts [stryker config]` (stryker.config.mjs when none is given).
 * Fails when a mutated file scores under its bar, kills none of its mutants or is missing from the report, when a
 * survivor is not on the config's equivalents list, when a listed equivalent no longer survives or matches more
 * survivors than it counts, and on a mutant ignored by a comment; writes the per-file table in markdown
 * beside the JSON report (docs/benchmarks.md, "npm run test:mutation").
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'
import { readMutationSettings } from './lib/mutation-config.ts'
import { parseEquivalents } from './lib/mutation-equivalents.ts'
import { readReport, summarizeMutation } from './lib/mutation-summary.ts'

const CONFIG = process.argv[2] ?? 'stryker.config.mjs'

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

if (!existsSync(CONFIG)) fail(`no Stryker config ${CONFIG}.`)
// A computed specifier: the config is plain JavaScript that Stryker reads, with no declaration file for tsc.
const settings = readMutationSettings(await import(pathToFileURL(CONFIG).href))
if ('error' in settings) fail(`${CONFIG}: ${settings.error}`)
const read = readReport(readJson(settings.jsonReport, `run Stryker first (npx stryker run ${CONFIG}).`))
if ('error' in read) fail(`${settings.jsonReport} ${read.error}`)
const { report } = read
const parsed = parseEquivalents(
  readJson(settings.equivalents, 'it lists the survivors judged equivalent ([] for none).'),
)
if ('error' in parsed) fail(`${settings.equivalents}: ${parsed.error}`)

const { table, markdown, failures } = summarizeMutation(
  report,
  settings.mutate,
  parsed.equivalents,
  settings.bars,
)
console.log(table.join('\n'))
writeFileSync(settings.markdownReport, `${markdown.join('\n')}\n`)
console.log(`The per-file table is in ${settings.markdownReport}.`)
if (failures.length > 0) fail(...failures)
console.log(
  `Every file scores its bar or more; every survivor is one of the ${parsed.equivalents.length} listed equivalents.`,
)
