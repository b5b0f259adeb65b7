// Debian's Chromium (CHROMIUM_PATH overrides) and the flags for every browser the repository starts.
import { accessSync, constants } from 'node:fs'

/** Debian's full browser (package `chromium`): what a visitor runs, so Lighthouse and the bundle bench measure in it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

/**
 * Debian's headless shell: the same engine without the user interface.
 * The e2e suite took 72 s in it against 119 s in the full browser (docs/decisions/015-suite-speed.md).
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
 * The browser the e2e suite drives: CHROMIUM_PATH, else the headless shell, else the full browser.
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
