// Tells, across the stress script's runs, which tests failed and which were flaky. Pure: takes parsed reports.

/** The part of Playwright's JSON report read here. */
export interface PlaywrightReport {
  suites?: ReportSuite[]
  errors?: { message?: string }[]
}
interface ReportSuite {
  title: string
  specs?: { title: string; file?: string; tests: { projectName?: string; status: string }[] }[]
  suites?: ReportSuite[]
}

/** Each test of a run as `file › title [project]` -> Playwright's outcome (expected, unexpected, flaky, skipped). */
export function readOutcomes(report: PlaywrightReport): Map<string, string> {
  const outcomes = new Map<string, string>()
  const walk = (suite: ReportSuite, path: string[]) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        const name = `${[...path, spec.title].join(' › ')} [${test.projectName ?? ''}]`
        outcomes.set(name, test.status)
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...path, child.title])
  }
  for (const suite of report.suites ?? []) walk(suite, [suite.title])
  return outcomes
}

export interface StressSummary {
  runs: { passed: number; failed: number; flaky: number; skipped: number; errors: number }[]
  /** Tests that failed in every run. */
  failed: string[]
  /** Tests that failed in some runs and passed in others, or passed only after a retry. */
  flaky: string[]
}

export function summarize(reports: PlaywrightReport[]): StressSummary {
  const perRun = reports.map(readOutcomes)
  const runs = reports.map((report, index) => {
    const statuses = [...(perRun[index] as Map<string, string>).values()]
    const count = (status: string) => statuses.filter((s) => s === status).length
    return {
      passed: count('expected'),
      failed: count('unexpected'),
      flaky: count('flaky'),
      skipped: count('skipped'),
      errors: report.errors?.length ?? 0,
    }
  })
  const names = new Set(perRun.flatMap((outcomes) => [...outcomes.keys()]))
  const failed: string[] = []
  const flaky: string[] = []
  for (const name of [...names].sort()) {
    const seen = perRun.map((outcomes) => outcomes.get(name) ?? 'missing')
    if (seen.every((status) => status === 'unexpected' || status === 'missing')) failed.push(name)
    else if (seen.some((status) => status === 'unexpected' || status === 'flaky' || status === 'missing'))
      flaky.push(name)
  }
  return { runs, failed, flaky }
}
