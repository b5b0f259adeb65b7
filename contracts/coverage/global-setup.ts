/**
 * Global setup of the `contracts` project: a fresh directory for the workers' coverage records, then the coverage
 * table. An unfiltered run fails when a documented (operation, status) was exercised by no test.
 *
 * vitest 4 only logs an error thrown in this teardown and keeps the exit code.
 * So the teardown sets `process.exitCode = 1` itself.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import type { TestProject } from 'vitest/node'
import { COVERAGE_DIR_KEY } from '#contracts/coverage/recorder.ts'
import { formatCoverageTable, readCoverageRecords, summarizeCoverage } from '#contracts/coverage/report.ts'
import { createOpenApiValidator } from '#contracts/support/openapi-validator.ts'
import { NOT_CHECKABLE, TARGET_URL } from '#contracts/support/target.ts'
import {
  formatMatchedSettings,
  formatNotCheckable,
  listMatchedSettings,
  listNotCheckable,
  testsOf,
  type MatchedSettingsTest,
  type NotCheckableTest,
} from '#contracts/coverage/target-checks.ts'
import { writeCoverageReports } from '#contracts/coverage/report-files.ts'
import type { ModelRunEntry } from '#harness/reports/model-runs.ts'

const ONLY_PATTERN = /\b(?:describe|suite|test|it)(?:\.\w+)*\.only\b/

/**
 * Why missing coverage is expected in this run, or null when every contract test could run.
 * A run is filtered when a file did not run, a name or tag filter was given, or a file has `.only`.
 * vitest reports `only` as `run`, so the sources are searched. `test.skip` does not count: its gap must show.
 */
export async function describeRunFilter(project: TestProject): Promise<string | null> {
  const vitest = project.vitest
  if (vitest.getGlobalTestNamePattern() ?? project.config.testNamePattern)
    return 'a test name filter (-t) was given'
  if (vitest.config.tagsFilter?.length) return 'a tags filter was given'
  const { testFiles } = await project.globTestFiles()
  const ran = new Set(
    vitest.state
      .getTestModules()
      .filter((m) => m.project.name === project.name && !['queued', 'pending'].includes(m.state()))
      .map((m) => m.moduleId),
  )
  const notRun = testFiles.filter((file) => !ran.has(file))
  if (notRun.length > 0) return `${notRun.length} of ${testFiles.length} contract test files did not run`
  const withOnly = testFiles.filter((file) => ONLY_PATTERN.test(readFileSync(file, 'utf8')))
  if (withOnly.length > 0)
    return `.only in ${withOnly.map((f) => relative(project.config.root, f)).join(', ')}`
  return null
}

/** The model-based runs of this run: the figures their tests left in their meta (contracts/model/). */
export function listModelRuns(project: TestProject): ModelRunEntry[] {
  return testsOf(project).flatMap(({ file, test }) => {
    const { modelRun } = test.meta()
    return modelRun ? [{ test: `${file} > ${test.fullName}`, ...modelRun }] : []
  })
}

/**
 * Prints the table and fails an unfiltered run on missing coverage.
 * Against a CONTRACT_TARGET, gaps are listed with their reasons, never passed.
 */
export async function reportContractCoverage(project: TestProject, dir: string): Promise<void> {
  const validator = createOpenApiValidator()
  const summary = summarizeCoverage(validator.listDocumentedPairs(), readCoverageRecords(dir))
  const files = Object.fromEntries(validator.documents.map((d) => [d.name, d.file]))
  const out = ['', formatCoverageTable(summary, files), '']
  const verdict: string[] = []
  let notCheckable: NotCheckableTest[] = []
  let matchedSettings: MatchedSettingsTest[] = []
  if (TARGET_URL) {
    notCheckable = listNotCheckable(project)
    matchedSettings = listMatchedSettings(project)
    const ran = testsOf(project).filter(({ test }) =>
      ['passed', 'failed'].includes(test.result().state),
    ).length
    out.push(formatNotCheckable(TARGET_URL, ran, notCheckable), '')
    if (matchedSettings.length > 0) out.push(formatMatchedSettings(TARGET_URL, matchedSettings), '')
    verdict.push(`Against ${TARGET_URL}: ${ran} checks ran; ${notCheckable.length} are ${NOT_CHECKABLE}.`)
    if (summary.missing.length > 0)
      verdict.push(
        `${summary.missing.length} documented responses were not reached against ${TARGET_URL} (✘ above): not failing, since a target answers only what it can be made to.`,
      )
  } else if (summary.missing.length > 0) {
    const filter = await describeRunFilter(project)
    if (filter) {
      verdict.push(
        `Not failing on ${summary.missing.length} unexercised responses: the run was filtered (${filter}).`,
      )
    } else {
      verdict.push(
        `FAIL: ${summary.missing.length} documented responses were exercised by no contract test (✘ above).`,
      )
      process.exitCode = 1
    }
  }
  out.push(...verdict)
  const written = writeCoverageReports(
    resolve(project.config.root, process.env.CONTRACT_REPORT_DIR?.trim() || 'reports/contracts'),
    {
      summary,
      files,
      target: TARGET_URL,
      verdict,
      notCheckable,
      matchedSettings,
      modelRuns: listModelRuns(project),
    },
  )
  out.push(`Coverage reports: ${written.map((file) => relative(project.config.root, file)).join(', ')}`)
  process.stdout.write(out.join('\n') + '\n')
}

/**
 * vitest's globalSetup hook: returns the teardown, which reports and removes the run directory.
 * @example globalSetup: ['contracts/coverage/global-setup.ts'] // in the contracts project of vitest.config.ts
 */
export function setup(project: TestProject): () => Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'contract-coverage-'))
  project.provide(COVERAGE_DIR_KEY, dir)
  return async function teardown() {
    try {
      await reportContractCoverage(project, dir)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }
}
