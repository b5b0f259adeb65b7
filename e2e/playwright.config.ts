// The e2e suite: Chromium (harness/chromium.ts) against the built app on the mock server, workers isolated by account.
// Tests that move the server's one clock run alone, after the others.
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS, e2eChromiumPath } from '../harness/chromium.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

/**
 * A free loopback port, chosen once in the main process; workers inherit it through the environment. The server binds
 * it only after the app's build, so it is one port 0 never hands out (mock-server/testing/ports.ts), asked of a child
 * because this file must have it before it returns. Written as text: console.log would color the number under
 * FORCE_COLOR (as scripts/run-parallel.ts sets it).
 */
function freePort(): string {
  const script =
    "import('./mock-server/testing/ports.ts').then((m) => m.unclaimedPort()).then((p) => process.stdout.write(String(p)))"
  return execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: root,
    encoding: 'utf8',
  }).trim()
}
process.env.E2E_PORT ??= freePort()
// The server runs with a control token, so the suite proves every client of /__mock passes it.
process.env.MOCK_CONTROL_TOKEN ??= randomBytes(16).toString('hex')
const origin = `http://127.0.0.1:${process.env.E2E_PORT}`
const SERVER_CLOCK = /server-clock\.spec\.ts$/
/** The demo with no server: its own build on its own static server (demo.spec.ts), not the mock server's app. */
const DEMO = /demo\.spec\.ts$/
/** This run's build of the app (removed by global-teardown.ts): one per run, so two runs never serve each other's. */
const webDir = `${root}test-results/e2e-web/${process.env.E2E_PORT}`
process.env.E2E_WEB_DIR = webDir

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  // Two cores here; more workers only make each test slower.
  workers: Number(process.env.E2E_WORKERS ?? 2),
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // Reports CI reads, all under reports/e2e (docs/decisions/018-reports.md): JUnit XML, CTRF JSON, the HTML
  // report, and each failed test's trace and screenshot.
  outputDir: `${root}reports/e2e/artifacts`,
  reporter: [
    ['list'],
    ['html', { outputFolder: `${root}reports/e2e/html`, open: 'never' }],
    ['junit', { outputFile: `${root}reports/e2e/junit.xml` }],
    [`${root}harness/reports/playwright-ctrf.ts`, { outputFile: `${root}reports/e2e/ctrf.json` }],
  ],
  globalTeardown: './global-teardown.ts',
  use: {
    baseURL: origin,
    // A failing test keeps its trace (actions, DOM snapshots, network, console) and a screenshot. The trace's
    // screencast is off: on two cores it made the whole run about a third slower.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: e2eChromiumPath(),
      args: CHROMIUM_ARGS,
    },
  },
  projects: [
    // Moving the one clock would expire other tests' tokens and codes. So those tests run last, one at a time,
    // as the main project's "teardown".
    { name: 'chromium', testIgnore: [SERVER_CLOCK, DEMO], teardown: 'server-clock' },
    { name: 'demo', testMatch: DEMO },
    { name: 'server-clock', testMatch: SERVER_CLOCK, fullyParallel: false },
  ],
  webServer: {
    // The app is built into this run's own directory, so another build cannot swap the files under it.
    // --trust-proxy 1: each test sends its own X-Forwarded-For (fixtures.ts), so rate limits count per test.
    command: [
      `node --import tsx scripts/run-e2e-build.ts ${webDir}`,
      `node mock-server/start.mjs --port ${process.env.E2E_PORT} --quiet --trust-proxy 1 --web ${webDir}`,
    ].join(' && '),
    cwd: root,
    url: `${origin}/api/_auth/session`,
    timeout: 180_000,
    // E2E_REUSE_SERVER=1 with E2E_PORT: use your own mock server (--trust-proxy 1, the same MOCK_CONTROL_TOKEN).
    reuseExistingServer: process.env.E2E_REUSE_SERVER === '1',
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
