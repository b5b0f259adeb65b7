// The verdict of `npm run test:mutation` from Stryker's JSON report, as one pure function: the per-file table and
// every reason the run fails. scripts/mutation-report.ts reads the files and prints it.
import {
  describeEquivalent,
  describeSurvivor,
  judgeFile,
  type Equivalent,
  type LocatedMutant,
} from './mutation-equivalents.ts'
import { DEFAULT_BAR } from './mutation-config.ts'
import { formatScores, formatScoresMarkdown, getFileScore, type FileScore } from './mutation-scores.ts'

/**
 * The statuses a run may leave. An ignored mutant passes only when `ignoreStatic` ignored it (a static mutant with
 * Stryker's reason): a `// Stryker disable` comment would be a second list of equivalents that nothing keeps honest,
 * and its reason text is free. A pending mutant never ran. A compile or runtime error (a mutant that broke the test
 * runner itself) is invalid, out of the score as Stryker counts it, but a file needs a mutant its tests killed.
 */
const JUDGED = new Set([
  'Killed',
  'Timeout',
  'Survived',
  'NoCoverage',
  'CompileError',
  'RuntimeError',
  'Ignored',
])
const STATIC_REASON = 'Static mutant (and "ignoreStatic" was enabled)'
const STRYKER_COMMENT = /Stryker\s+(disable|restore)/

/** The part of Stryker's JSON report (mutation-testing-report-schema) read here. */
export interface MutationReport {
  files: Record<string, { source: string; mutants: LocatedMutant[] }>
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null

const isPosition = (value: unknown) =>
  isObject(value) && Number.isInteger(value.line) && Number.isInteger(value.column)

const isMutant = (value: unknown) =>
  isObject(value) &&
  typeof value.status === 'string' &&
  typeof value.mutatorName === 'string' &&
  (value.replacement === undefined || typeof value.replacement === 'string') &&
  isObject(value.location) &&
  isPosition(value.location.start) &&
  isPosition(value.location.end)

/**
 * The report read as this summary needs it, or one line saying which files it cannot read: a crafted or truncated
 * report ends the run with that line, not a stack.
 */
export function readReport(value: unknown): { report: MutationReport } | { error: string } {
  const files = (value as { files?: unknown } | null)?.files
  if (typeof files !== 'object' || files === null)
    return { error: "holds no files: not a report of Stryker's JSON reporter." }
  const malformed = Object.entries(files)
    .filter(([, entry]) => {
      const { source, mutants } = (entry ?? {}) as { source?: unknown; mutants?: unknown }
      return typeof source !== 'string' || !Array.isArray(mutants) || !mutants.every(isMutant)
    })
    .map(([file]) => file)
  if (malformed.length > 0)
    return {
      error: `no source text, or a mutant without status, mutator or location, for ${malformed.join(', ')}.`,
    }
  return { report: value as MutationReport }
}

export interface MutationSummary {
  table: string[]
  /** The same table in markdown, with each file's bar (scripts/mutation-report.ts writes it beside the report). */
  markdown: string[]
  /** One line each; the run passes when there is none. */
  failures: string[]
}

/**
 * Every file of `mutate` must be in the report and score its bar (`minScore` %, one for all or one per file) or more
 * with the listed equivalents left out;
 * every survivor must be on the list, and every entry must still match a survivor (the list stays honest).
 */
export function summarizeMutation(
  report: MutationReport,
  mutate: readonly string[],
  equivalents: readonly Equivalent[],
  minScore: number | Readonly<Record<string, number>>,
): MutationSummary {
  const barOf = (file: string) => (typeof minScore === 'number' ? minScore : (minScore[file] ?? DEFAULT_BAR))
  const failures: string[] = []
  const matched = new Map<Equivalent, number>()
  const scores: FileScore[] = []
  for (const file of mutate) {
    const entry = report.files[file]
    if (!entry) {
      failures.push(`not in the report: ${file}`)
      continue
    }
    if (STRYKER_COMMENT.test(entry.source))
      failures.push(`a Stryker comment in ${file}: list its mutants as equivalents, with their reasons`)
    for (const mutant of entry.mutants) {
      const where = `${file}:${mutant.location.start.line} ${mutant.mutatorName}`
      if (!JUDGED.has(mutant.status)) failures.push(`not judged (${mutant.status}): ${where}`)
      else if (
        mutant.status === 'Ignored' &&
        !(mutant.static === true && mutant.statusReason === STATIC_REASON)
      )
        failures.push(
          `ignored by a comment, not listed: ${where} (list it as an equivalent, with its reason)`,
        )
    }
    const judged = judgeFile(file, entry.source, entry.mutants, equivalents)
    for (const [used, count] of judged.matched) matched.set(used, (matched.get(used) ?? 0) + count)
    for (const survivor of judged.unlisted)
      failures.push(`survivor not on the list: ${describeSurvivor(survivor)}`)
    const score = getFileScore(file, judged.mutants)
    if (score.killed + score.timeout === 0) failures.push(`no mutant of ${file} was killed by its tests`)
    if (score.score !== null && score.score < barOf(file)) failures.push(`under ${barOf(file)} %: ${file}`)
    scores.push(score)
  }
  for (const entry of equivalents) {
    const found = matched.get(entry) ?? 0
    const listed = entry.mutants ?? 1
    if (found === 0) failures.push(`listed equivalent no longer survives: ${describeEquivalent(entry)}`)
    else if (found !== listed)
      failures.push(
        `listed equivalent matches ${found} survivors, not ${listed}: ${describeEquivalent(entry)}`,
      )
  }
  return { table: formatScores(scores), markdown: formatScoresMarkdown(scores, barOf), failures }
}
