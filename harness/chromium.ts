// Debian's Chromium (CHROMIUM_PATH overrides) and the flags every browser the repository starts runs with: the e2e
// suite (e2e/playwright.config.ts), `npm run lighthouse` and the bundle bench.
import { accessSync, constants } from 'node:fs'

/** Debian's full browser (package `chromium`): what a visitor runs, so Lighthouse and the bundle bench measure in it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Debian's headless shell (package `chromium-headless-shell`): the same engine and version without the browser's
 * user interface, the binary Playwright itself runs headless tests in. The e2e suite runs in it: the same 87 tests
 * took 72 s of wall time there against 119 s in the full browser (docs/decisions/015-suite-speed.md).
 */
export const HEADLESS_SHELL_PATH = '/usr/lib/chromium/chromium-headless-shell'

export function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/**
 * The browser the e2e suite drives: CHROMIUM_PATH when set; otherwise the headless shell, or the full browser where the
 * shell is not installed (scripts/ensure-chromium.ts installs the shell, as root, and says so otherwise).
 */
export function e2eChromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  return isExecutable(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH
}

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]
