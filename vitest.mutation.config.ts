// The vitest config Stryker runs (stryker.config.mjs): the web app's .test.ts files, each in the project and
// environment `npm test` runs it in (vitest.config.ts: node for the logic tests, jsdom for the few that need a DOM).
// The component tests (.test.tsx) render the whole app and mock backend in-process, seconds each, and would run
// against nearly every mutant; the runner's `related` filter then keeps the files that import a mutated module.
import { defineConfig } from 'vitest/config'
import LoadFailureReporter from './scripts/lib/load-failure-reporter.ts'
import CheapestFirst from './scripts/lib/mutation-sequencer.ts'
import { unitWebNodeProject, unitWebProject } from './vitest.config.ts'

export default defineConfig({
  test: {
    // A test file that fails to load counts as a failed test, so a mutant that breaks a module's loading is killed.
    reporters: ['default', new LoadFailureReporter()],
    // A mutant stops at its first failing test: the files likeliest to fail it quickly run first.
    sequence: { sequencer: CheapestFirst },
    projects: [
      {
        ...unitWebNodeProject,
        test: { ...unitWebNodeProject.test, include: ['web/src/**/*.test.ts'] },
      },
      {
        ...unitWebProject,
        test: {
          ...unitWebProject.test,
          include: (unitWebProject.test?.include ?? []).filter((glob) => glob.endsWith('.test.ts')),
          // One jsdom for all the files of a mutant's run instead of one each: these tests build all their state
          // through factories (unitWebNodeProject shares its module graph the same way).
          isolate: false,
        },
      },
    ],
  },
})
