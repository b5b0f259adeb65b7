/**
 * Makes sure the e2e suite has a Chromium (harness/chromium.ts `ensureChromium`), installing Debian's headless
 * shell when it can. Run by `npm run test:e2e` before Playwright.
 */
import { HEADLESS_SHELL_PATH, chromiumVersion, ensureChromium } from '#harness/chromium.ts'

try {
  const path = ensureChromium('e2e')
  if (path !== HEADLESS_SHELL_PATH && !process.env.CHROMIUM_PATH)
    console.log(
      `Chromium's headless shell is not usable at ${HEADLESS_SHELL_PATH}: the e2e suite runs in the full browser, ` +
        'about 1.6 times slower (sudo apt-get install --reinstall -y chromium-headless-shell to speed it up).',
    )
  console.log(
    `Chromium: ${chromiumVersion(path)} (${path}${process.env.CHROMIUM_PATH ? ', from CHROMIUM_PATH' : ''})`,
  )
} catch (error) {
  console.error((error as Error).message)
  process.exitCode = 1
}
