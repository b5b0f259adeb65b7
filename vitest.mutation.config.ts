// The vitest config Stryker runs (stryker.config.mjs): the unit-web project with its .test.ts files only. The
// component tests (.test.tsx) render the whole app and mock backend in-process, seconds each, and would run
// against nearly every mutant; the runner's `related` filter then keeps the files that import a mutated module.
import { defineConfig } from 'vitest/config'
import LoadFailureReporter from './scripts/lib/load-failure-reporter.ts'
import CheapestFirst from './scripts/lib/mutation-sequencer.ts'
import { unitWebProject } from './vitest.config.ts'

export default defineConfig({
  test: {
    // A test file that fails to load counts as a failed test, so a mutant that breaks a module's loading is killed.
    reporters: ['default', new LoadFailureReporter()],
    // A mutant stops at its first failing test: the files likeliest to fail it quickly run first.
    sequence: { sequencer: CheapestFirst },
    projects: [
      {
        ...unitWebProject,
        test: {
          ...unitWebProject.test,
          include: ['web/src/**/*.test.ts'],
          // One jsdom for all the files of a mutant's run instead of one each. Measured on two cores: a full run
          // in 7.5 minutes instead of 18.5, with the same verdict for every mutant (a few kills became timeouts,
          // detected all the same). Safe because these tests build all their state through factories.
          isolate: false,
        },
      },
    ],
  },
})
