// Debian's Chromium (CHROMIUM_PATH overrides) and the flags for every browser the repository starts.
import { accessSync, constants } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { aptInstall, canUseAptGet } from './apt.ts'

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

/** The version line a binary prints, or null when it is missing or does not start. */
export function chromiumVersion(binary: string): string | null {
  if (!isExecutable(binary)) return null
  try {
    const out = execFileSync(binary, ['--version', '--no-sandbox'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    return out.trim().split('\n').at(-1) ?? null
  } catch {
    return null
  }
}

/**
 * Makes sure a Chromium is at hand, since Playwright's and Lighthouse's downloads do not work here, and returns its
 * path. `e2e` wants the headless shell (the full browser is its fallback); `full` wants the browser a visitor runs,
 * which Lighthouse and the bundle bench measure in. As root it installs the missing Debian package; otherwise it
 * throws with what to install.
 */
export function ensureChromium(kind: 'e2e' | 'full'): string {
  if (process.env.CHROMIUM_PATH) {
    if (chromiumVersion(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH
    throw new Error(`Chromium was not found at ${process.env.CHROMIUM_PATH} (CHROMIUM_PATH).`)
  }
  const [wanted, pkg] =
    kind === 'e2e' ? [HEADLESS_SHELL_PATH, 'chromium-headless-shell'] : [CHROMIUM_PATH, 'chromium']
  if (!chromiumVersion(wanted) && canUseAptGet()) {
    console.log(
      `Chromium is missing at ${wanted}: installing Debian's "${pkg}" with apt-get (a minute or two)...`,
    )
    aptInstall([pkg], 'Chromium', ['--reinstall', '--no-install-recommends'])
  }
  const path = kind === 'e2e' ? e2eChromiumPath() : CHROMIUM_PATH
  if (chromiumVersion(path)) return path
  throw new Error(
    [
      `Chromium was not found at ${path}${kind === 'e2e' ? ` nor at ${CHROMIUM_PATH}` : ''}.`,
      'Browser downloads do not work here, so this needs a system Chromium. Either:',
      `  - on Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y ${pkg}`,
      '  - or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    ].join('\n'),
  )
}
