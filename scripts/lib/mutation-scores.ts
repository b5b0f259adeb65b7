// Per-file mutation scores from Stryker's JSON report (the mutation-testing-report-schema's `files`), as pure
// functions; scripts/mutation-report.ts reads the report and prints them.

/** The fields of a report mutant this summary reads. */
export interface ReportMutant {
  status: string
}

/** The status scripts/lib/mutation-equivalents.ts gives a survivor on the equivalents list. */
export const EQUIVALENT = 'Equivalent'

export interface FileScore {
  file: string
  killed: number
  survived: number
  noCoverage: number
  timeout: number
  /** Survivors listed as equivalent (scripts/lib/mutation-equivalents.ts): counted neither way. */
  equivalent: number
  /** Detected (killed, timeout) over valid (those plus survived, no coverage), in %; null without a valid mutant. */
  score: number | null
}

/**
 * Stryker's mutation score for one file: compile and runtime errors, ignored mutants and listed equivalents are
 * not valid ones.
 * @example
 * getFileScore('a.ts', [{ status: 'Killed' }, { status: 'Survived' }]) // { ..., score: 50 }
 */
export function getFileScore(file: string, mutants: readonly ReportMutant[]): FileScore {
  const count = (status: string) => mutants.filter((mutant) => mutant.status === status).length
  const killed = count('Killed')
  const survived = count('Survived')
  const noCoverage = count('NoCoverage')
  const timeout = count('Timeout')
  const equivalent = count(EQUIVALENT)
  const detected = killed + timeout
  const valid = detected + survived + noCoverage
  return {
    file,
    killed,
    survived,
    noCoverage,
    timeout,
    equivalent,
    score: valid === 0 ? null : (detected / valid) * 100,
  }
}

/** The table's lines: header, one line per file, scores to one decimal. */
export function formatScores(scores: readonly FileScore[]): string[] {
  const width = Math.max(4, ...scores.map((row) => row.file.length))
  const cells = (row: readonly (string | number)[]) =>
    row.map((cell, i) => (i === 0 ? String(cell).padEnd(width) : String(cell).padStart(11))).join(' ')
  return [
    cells(['file', 'killed', 'survived', 'no-coverage', 'timeout', 'equivalent', 'score %']),
    ...scores.map((row) =>
      cells([
        row.file,
        row.killed,
        row.survived,
        row.noCoverage,
        row.timeout,
        row.equivalent,
        row.score === null ? 'n/a' : row.score.toFixed(1),
      ]),
    ),
  ]
}

/** All the mutants of a file the table counts: the valid ones and the listed equivalents. */
const mutantCount = (row: FileScore) =>
  row.killed + row.survived + row.noCoverage + row.timeout + row.equivalent

/**
 * The table in markdown (reports/mutation/.../mutation.md): file, mutants, killed (timeouts included), survived, no
 * coverage, equivalent, score and the file's bar.
 */
export function formatScoresMarkdown(
  scores: readonly FileScore[],
  barOf: (file: string) => number,
): string[] {
  const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`
  return [
    row(['file', 'mutants', 'killed', 'survived', 'no coverage', 'equivalent', 'score %', 'bar %']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...scores.map((score) =>
      row([
        `\`${score.file}\``,
        mutantCount(score),
        score.killed + score.timeout,
        score.survived,
        score.noCoverage,
        score.equivalent,
        score.score === null ? 'n/a' : score.score.toFixed(1),
        barOf(score.file),
      ]),
    ),
  ]
}
