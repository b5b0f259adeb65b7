import { availableParallelism } from 'node:os'
import { defineConfig, defineProject } from 'vitest/config'
import { isLoopbackTarget } from './contracts/support/loopback-target.ts'

/**
 * Whether the contract suite's files run one at a time against CONTRACT_TARGET (docs/decisions/016-contract-target.md).
 * A target whose /__mock answers is reset before each test, so its files share it in turn. One without /__mock is
 * never reset: on 127.0.0.0/8 each check reaches it from a client address of its own (contracts/support/
 * client-address.ts), so its files run side by side and their real waits overlap. A remote one sees one client, whose
 * rate limits a file beside another would spend: one at a time. Asked once, as the run starts (GET /__mock/clock).
 */
async function targetFilesInTurn(): Promise<boolean> {
  const raw = process.env.CONTRACT_TARGET?.trim()
  if (!raw) return false
  let target: URL
  try {
    target = new URL(raw)
  } catch {
    return true // the suite's own reading of CONTRACT_TARGET says what is wrong with it
  }
  if (!isLoopbackTarget(raw)) return true
  const token = process.env.CONTRACT_CONTROL_TOKEN?.trim()
  try {
    const answer = await fetch(new URL('/__mock/clock', target), {
      headers: token ? { 'X-Mock-Control-Token': token } : {},
    })
    await answer.body?.cancel()
    return answer.status === 200
  } catch {
    return true // out of reach: the suite's probe fails the run, naming it
  }
}
const TARGET_FILES_IN_TURN = await targetFilesInTurn()
/**
 * Files side by side against a target that is not reset (above): most of such a run is real waits (cooldowns,
 * lifetimes, time-outs), so four files at a time overlap them on two cores as well. 2026-11-30, two workers: 4 min 29 s
 * quiet, 6 min 5 s beside a CI run.
 */
const TARGET_FILES_SIDE_BY_SIDE = Boolean(process.env.CONTRACT_TARGET?.trim()) && !TARGET_FILES_IN_TURN

/**
 * The web app's tests that need a DOM: every component test (.test.tsx) and the few .test.ts files that reach for a
 * browser global the node environment lacks (sessionStorage, ErrorEvent). Any other web .test.ts runs in unit-web-node: a jsdom
 * environment costs about half a second per file to set up, for nothing when a test renders nothing.
 */
const WEB_DOM_TESTS = [
  'web/src/**/*.test.tsx',
  'web/src/session/token-storage.test.ts',
  'web/src/lib/monitoring/schedule-services.test.ts',
]

/** The web app's unit and component tests (jsdom). */
export const unitWebProject = defineProject({
  test: {
    name: 'unit-web',
    environment: 'jsdom',
    include: WEB_DOM_TESTS,
    exclude: ['**/*.contract.test.ts', '**/node_modules/**'],
    setupFiles: ['web/src/test/setup.ts'],
    // Component tests render the whole app against the mock server's table; on a loaded 2-core machine a
    // full journey can pass 5 s, and one wait may take 10 (web/src/test/setup.ts). A timeout here is a slow machine,
    // not a verdict; the one for every screen test, so no file sets a lower one of its own. Hooks likewise.
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
})

/** The web app's logic tests (session/, api/, lib/, features' pure modules): no DOM; vitest.mutation.config.ts narrows it for Stryker, as unitWebProject. */
export const unitWebNodeProject = defineProject({
  test: {
    name: 'unit-web-node',
    environment: 'node',
    include: ['web/src/**/*.test.ts', 'demo/**/*.test.ts'],
    exclude: [...WEB_DOM_TESTS, '**/*.contract.test.ts', '**/node_modules/**'],
    setupFiles: ['web/src/test/setup-console.ts'],
    // One module graph per worker instead of one per file: these tests build all their state through factories
    // and fakes (the mutation run has relied on the same since vitest.mutation.config.ts), and the imports were
    // most of their time. docs/decisions/015-suite-speed.md has the figures.
    isolate: false,
  },
})

// Four projects whose globs never overlap: node unit tests, the web app's logic tests (node) and its component tests
// (jsdom), and the contract suite (*.contract.test.ts).
export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores, to leave the main process one: on this 2-core machine that
    // is a single worker, and every file then waits for the one before it (mock-server/src/main.test.ts mostly waits
    // on its child processes). Two workers here; vitest's default where there are more cores.
    // docs/decisions/015-suite-speed.md has the figures.
    maxWorkers: TARGET_FILES_SIDE_BY_SIDE ? 4 : Math.max(2, availableParallelism() - 1),
    // npm test starts some twenty vitest processes (its legs, and the contract runs the suite's own tests start), each
    // transforming the same modules: kept on disk in node_modules, keyed by content, each is transformed once
    // (docs/decisions/025-ci-minutes.md).
    experimental: { fsModuleCache: true },
    projects: [
      {
        test: {
          name: 'unit-node',
          environment: 'node',
          include: [
            'mock-server/**/*.test.ts',
            'scripts/**/*.test.ts',
            'harness/**/*.test.ts',
            'qa-cli/**/*.test.ts',
            'api/**/*.test.ts',
            'contracts/support/**/*.test.ts',
            'contracts/coverage/**/*.test.ts',
            'contracts/model/**/*.test.ts',
          ],
          exclude: ['**/*.contract.test.ts', '**/node_modules/**'],
          // The tests that start the mock server as `npm run mock` does run its compiled build, made here once.
          globalSetup: ['mock-server/testing/build-once.ts', 'harness/postgres-setup.ts'],
          // One module graph per worker, as in unit-web-node: every server here is built by a factory (createApp,
          // createCore) with its own state, and no module holds state of its own (docs/architecture.md). No test of
          // this project stubs a global, mocks a module or fakes timers. docs/decisions/015-suite-speed.md has the
          // figures.
          isolate: false,
          // Many of these tests start a server or a tool in a child process, several one after another: on a loaded
          // 2-core machine five refused starts passed vitest's 5 s. A time-out here is a slow machine, not a
          // verdict (each wait on the child's output has its own, run-main.ts), as in unit-web and contracts. Hooks
          // likewise: vitest's 10 s is less than a test's.
          testTimeout: 30_000,
          hookTimeout: 30_000,
        },
      },
      unitWebNodeProject,
      unitWebProject,
      {
        test: {
          name: 'contracts',
          environment: 'node',
          include: ['contracts/**/*.contract.test.ts'],
          globalSetup: [
            'contracts/coverage/global-setup.ts',
            'harness/postgres-setup.ts',
            'contracts/support/mail-capture.ts',
          ],
          setupFiles: ['contracts/support/target-setup.ts'],
          // Against a CONTRACT_TARGET reset before each test, or remote, one file at a time (targetFilesInTurn).
          fileParallelism: !TARGET_FILES_IN_TURN,
          // A hook makes the test's server or, against a target, first probes it: in a child run of the unit suite
          // beside the other legs that took over vitest's 10 s (2026-11-30). As long as a test may take.
          testTimeout: 30_000,
          hookTimeout: 30_000,
          // Each file builds its own app (createApp through contracts/support/test-server.ts) and records coverage into its
          // worker's own file, so one module graph per worker serves them all: importing the app once per file was
          // half the project's CPU. docs/decisions/015-suite-speed.md has the figures.
          isolate: false,
        },
      },
      {
        test: {
          // Real instances behind nginx, started by the balancer leg (harness/balancer-leg.ts), which alone runs it.
          name: 'cluster',
          environment: 'node',
          include: ['contracts/cluster/**/*.cluster.test.ts'],
          fileParallelism: false,
          testTimeout: 60_000,
        },
      },
    ],
  },
})
