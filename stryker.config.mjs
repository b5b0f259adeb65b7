// Mutation testing (`npm run test:mutation`) of the session life cycle and the API client: Stryker mutates
// exactly these modules and runs the unit tests of vitest.mutation.config.ts against each mutant; then
// scripts/mutation-report.ts reads the JSON report, holds every file to 95 % and every survivor to the equivalents
// list, stryker-equivalents.json (docs/benchmarks.md, "npm run test:mutation").

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'web/src/session/session-machine.ts',
    'web/src/session/session-store.ts',
    'web/src/session/session-effects.ts',
    'web/src/session/cross-tab.ts',
    'web/src/session/session-calls.ts',
    'web/src/session/token-storage.ts',
    'web/src/session/user.ts',
    'web/src/api/auth-middleware.ts',
    'web/src/api/client.ts',
    'web/src/api/http-retry.ts',
    'web/src/api/error-messages.ts',
  ],
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: true },
  // Each mutant runs only the tests that reached it in the initial run.
  coverageAnalysis: 'perTest',
  // Reuses the previous run's verdicts for mutants whose code and tests did not change; the file lives in
  // reports/ (not in git: it is a local cache). `npx stryker run --force` runs every mutant again, which a static
  // (module-level) mutant needs after a new test: it has no covering tests, so only a change to its file reruns it.
  incremental: true,
  incrementalFile: 'reports/mutation/stryker-incremental.json',
  reporters: ['progress', 'clear-text', 'html', 'json'],
  // The survivors with their diffs; the per-file scores are scripts/mutation-report.ts's table.
  clearTextReporter: { reportScoreTable: false, reportTests: false, logTests: false },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  // The 95 % bar is per file, in scripts/mutation-report.ts; Stryker's own threshold is the total only.
  thresholds: { high: 95, low: 80, break: null },
}
