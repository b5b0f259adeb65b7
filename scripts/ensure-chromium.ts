/**
 * Makes sure the e2e suite has a Chromium to drive (Playwright's own browser download does not work
 * here). Uses CHROMIUM_PATH, else /usr/bin/chromium; when it is missing, installs Debian's `chromium`
 * with apt-get if this user may (root), and otherwise stops with what to install.
 * Run by `npm run test:e2e` (and so by `npm test`) before Playwright.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { accessSync, constants } from 'node:fs'

const DEFAULT_PATH = '/usr/bin/chromium'
const path = process.env.CHROMIUM_PATH ?? DEFAULT_PATH

function version(binary: string): string | null {
  try {
    accessSync(binary, constants.X_OK)
    const out = execFileSync(binary, ['--version', '--no-sandbox'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    })
    return out.trim().split('\n').at(-1) ?? null
  } catch {
    return null
  }
}

function canInstall(): boolean {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  return (
    isRoot && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0 && path === DEFAULT_PATH
  )
}

function install(): void {
  console.log('Chromium is missing: installing Debian\'s "chromium" with apt-get (a minute or two)...')
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', 'chromium'],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env })
    if (result.status !== 0)
      throw new Error(`Failed to install Chromium: apt-get ${args.join(' ')} exited ${result.status}.`)
  }
}

function main(): number {
  let found = version(path)
  if (!found && canInstall()) {
    install()
    found = version(path)
  }
  if (!found) {
    console.error(
      [
        `Chromium was not found at ${path}.`,
        'The e2e suite drives a system Chromium (browser downloads do not work here). Either:',
        '  - on Debian or Ubuntu: sudo apt-get update && sudo apt-get install -y chromium',
        '  - or point CHROMIUM_PATH at a Chromium or Chrome binary.',
      ].join('\n'),
    )
    return 1
  }
  console.log(`Chromium: ${found} (${path})`)
  return 0
}

try {
  process.exitCode = main()
} catch (error) {
  console.error((error as Error).message)
  process.exitCode = 1
}
