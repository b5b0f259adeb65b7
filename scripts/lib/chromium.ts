// Debian's Chromium (CHROMIUM_PATH overrides) and the flags every browser the repository starts runs with: the e2e
// suite (e2e/playwright.config.ts), `npm run lighthouse` and the bundle bench.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
]
