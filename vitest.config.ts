import { defineConfig, defineProject } from 'vitest/config'

/** The web app's unit and component tests (jsdom); vitest.mutation.config.ts narrows it for Stryker. */
export const unitWebProject = defineProject({
  test: {
    name: 'unit-web',
    environment: 'jsdom',
    include: ['web/src/**/*.test.{ts,tsx}'],
    exclude: ['**/*.contract.test.ts', '**/node_modules/**'],
    setupFiles: ['web/src/test/setup.ts'],
    // Component tests render the whole app against the mock server's table; on a loaded 2-core machine a
    // full journey can pass 5 s. A timeout here is a slow machine, not a verdict.
    testTimeout: 15_000,
  },
})

// Three projects whose globs never overlap: node unit tests, the web app's unit and component tests
// (jsdom), and the contract suite (*.contract.test.ts).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit-node',
          environment: 'node',
          include: [
            'mock-server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'contracts/support/**/*.test.ts',
            'contracts/coverage/**/*.test.ts',
          ],
          exclude: ['**/*.contract.test.ts', '**/node_modules/**'],
        },
      },
      unitWebProject,
      {
        test: {
          name: 'contracts',
          environment: 'node',
          include: ['contracts/**/*.contract.test.ts'],
          globalSetup: ['contracts/coverage/global-setup.ts'],
          testTimeout: 30_000,
        },
      },
    ],
  },
})
