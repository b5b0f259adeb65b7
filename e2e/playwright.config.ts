// The e2e suite: Debian's Chromium (CHROMIUM_PATH overrides), the built app served by the mock server
// on a free port, parallel workers isolated by account.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { defineConfig } from '@playwright/test'

const root = fileURLToPath(new URL('..', import.meta.url))

/** A free loopback port, chosen once in the main process; workers inherit it through the environment. */
function freePort(): string {
  const script =
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
  return execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim()
}
process.env.E2E_PORT ??= freePort()
const origin = `http://127.0.0.1:${process.env.E2E_PORT}`

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  workers: process.env.CI ? 2 : undefined,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  outputDir: `${root}test-results/e2e`,
  reporter: [['list'], ['html', { outputFolder: `${root}playwright-report`, open: 'never' }]],
  use: {
    baseURL: origin,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  webServer: {
    command: `npm run build --silent && node --import tsx mock-server/src/main.ts --port ${process.env.E2E_PORT} --quiet --web web/dist`,
    cwd: root,
    url: `${origin}/api/_auth/session`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
  },
})
