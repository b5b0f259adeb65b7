// Per-file mutation scores from Stryker's JSON report (the mutation-testing-report-schema's `files`), as pure
// functions; scripts/mutation-report.ts reads the report and prints them.

/** The fields of a report mutant this summary reads. */
export interface ReportMutant {
  status: string
}

export interface FileScore {
  file: string
  killed: number
  survived: number
  noCoverage: number
  timeout: number
  /** Detected (killed, timeout) over valid (those plus survived, no coverage), in %; null without a valid mutant. */
  score: number | null
}

/**
 * Stryker's mutation score for one file: compile and runtime errors and ignored mutants are not valid ones.
 * @example
 * getFileScore('a.ts', [{ status: 'Killed' }, { status: 'Survived' }]) // { ..., score: 50 }
 */
export function getFileScore(file: string, mutants: readonly ReportMutant[]): FileScore {
  const count = (status: string) => mutants.filter((mutant) => mutant.status === status).length
  const killed = count('Killed')
  const survived = count('Survived')
  const noCoverage = count('NoCoverage')
  const timeout = count('Timeout')
  const detected = killed + timeout
  const valid = detected + survived + noCoverage
  return {
    file,
    killed,
    survived,
    noCoverage,
    timeout,
    score: valid === 0 ? null : (detected / valid) * 100,
  }
}

/** The table's lines: header, one line per file, scores to one decimal. */
export function formatScores(scores: readonly FileScore[]): string[] {
  const width = Math.max(4, ...scores.map((row) => row.file.length))
  const cells = (row: readonly (string | number)[]) =>
    row.map((cell, i) => (i === 0 ? String(cell).padEnd(width) : String(cell).padStart(11))).join(' ')
  return [
    cells(['file', 'killed', 'survived', 'no-coverage', 'timeout', 'score %']),
    ...scores.map((row) =>
      cells([
        row.file,
        row.killed,
        row.survived,
        row.noCoverage,
        row.timeout,
        row.score === null ? 'n/a' : row.score.toFixed(1),
      ]),
    ),
  ]
}
