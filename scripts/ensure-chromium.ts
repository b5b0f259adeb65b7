/**
 * Makes sure the e2e suite has a Chromium, since Playwright's own download does not work here.
 * It installs Debian's headless shell when it can (harness/chromium.ts), else falls back or says what to install.
 * Run by `npm run test:e2e` before Playwright.
 */
import { execFileSync } from 'node:child_process'
import { aptInstall, canUseAptGet } from '#harness/apt.ts'
import { CHROMIUM_PATH, HEADLESS_SHELL_PATH, e2eChromiumPath, isExecutable } from '#harness/chromium.ts'

const SHELL_PACKAGE = 'chromium-headless-shell'

function version(binary: string): string | null {
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

function install(): void {
  console.log(
    `Chromium's headless shell is missing: installing Debian's "${SHELL_PACKAGE}" with apt-get (a minute or two)...`,
  )
  aptInstall([SHELL_PACKAGE], 'Chromium', ['--reinstall', '--no-install-recommends'])
}

function main(): number {
  if (process.env.CHROMIUM_PATH) {
    const found = version(process.env.CHROMIUM_PATH)
    if (found) {
      console.log(`Chromium: ${found} (${process.env.CHROMIUM_PATH}, from CHROMIUM_PATH)`)
      return 0
    }
    console.error(`Chromium was not found at ${process.env.CHROMIUM_PATH} (CHROMIUM_PATH).`)
    return 1
  }
  if (!version(HEADLESS_SHELL_PATH) && canUseAptGet()) install()
  const path = e2eChromiumPath()
  const found = version(path)
  if (!found) {
    console.error(
      [
        `Chromium was found neither at ${HEADLESS_SHELL_PATH} nor at ${CHROMIUM_PATH}.`,
        'The e2e suite drives a system Chromium (browser downloads do not work here). Either:',
        `  - on Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y ${SHELL_PACKAGE}`,
        '  - or point CHROMIUM_PATH at a Chromium or Chrome binary.',
      ].join('\n'),
    )
    return 1
  }
  if (path !== HEADLESS_SHELL_PATH)
    console.log(
      `Chromium's headless shell is not usable at ${HEADLESS_SHELL_PATH}: the e2e suite runs in the full browser, ` +
        'about 1.6 times slower ' +
        `(sudo apt-get install --reinstall -y ${SHELL_PACKAGE} to speed it up).`,
    )
  console.log(`Chromium: ${found} (${path})`)
  return 0
}

try {
  process.exitCode = main()
} catch (error) {
  console.error((error as Error).message)
  process.exitCode = 1
}
