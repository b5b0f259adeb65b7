// The vitest config Stryker runs for the server's rules (stryker.server.config.mjs): the mock server's unit tests and
// the in-process contract suite on the memory store. Left out: the tests that start the compiled server
// build (main*.test.ts, start.test.ts, mock-server/testing/build-once.ts), which a mutant of the source never
// reaches, PostgreSQL's outage (below), and the balancer's cluster tests (docs/benchmarks.md, "npm run
// test:mutation").
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import LoadFailureReporter from './scripts/lib/load-failure-reporter.ts'
import CheapestFirst from './scripts/lib/mutation-sequencer.ts'
import suites from './vitest.config.ts'

const projects = (suites.test?.projects ?? []) as TestProjectInlineConfiguration[]
const contracts = projects.find((project) => project.test?.name === 'contracts')
if (!contracts?.test) throw new Error('vitest.config.ts has no contracts project.')

export default defineConfig({
  test: {
    reporters: ['default', new LoadFailureReporter()],
    // A mutant stops at its first failing test: the files likeliest to fail it quickly run first.
    sequence: { sequencer: CheapestFirst },
    projects: [
      {
        test: {
          name: 'unit-server',
          environment: 'node',
          include: ['mock-server/src/**/*.test.ts'],
          exclude: [
            'mock-server/src/main*.test.ts',
            'mock-server/src/start.test.ts',
            // PostgreSQL taken away under running servers: a check of the infrastructure, not of a rule, and a fifth
            // of the suite's time (22 s, mostly waiting out connect time-outs), which every surviving mutant of a
            // rule that a sign-in reaches would spend again.
            'mock-server/src/compose/database-outage.test.ts',
            '**/node_modules/**',
          ],
          // The PostgreSQL-parameterized tests read the database URL this setup provides.
          globalSetup: ['harness/postgres-setup.ts'],
          // As unit-node in vitest.config.ts: every server is built by a factory with its own state.
          isolate: false,
          // Before the contract suite: a mutant stops at its first failing test, and a unit test of the rule is
          // the quickest to fail (docs/benchmarks.md, "npm run test:mutation").
          sequence: { groupOrder: 0 },
        },
      },
      {
        ...contracts,
        test: {
          ...contracts.test,
          include: ['contracts/**/*.contract.test.ts'],
          exclude: ['contracts/cluster/**', '**/node_modules/**'],
          sequence: { ...contracts.test.sequence, groupOrder: 1 },
          // Fixed seeds: the two generated suites name their describe by seed, and a test renamed at every run made
          // every mutant it covers run again in an incremental run (most of them equivalents, which run every test);
          // a fixed seed also gives a mutant the same tests, so the same verdict, each run.
          env: { ...contracts.test.env, CONFORMANCE_SEED: '1', GENERATED_INPUT_SEED: '1' },
        },
      },
    ],
  },
})
