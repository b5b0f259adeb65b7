// apt-get for the suites' system packages (Chromium, PostgreSQL, nginx). The legs of `npm test` start side by side,
// and two apt-get at once fail on dpkg's lock: each waits its turn on one lock file instead.
import { spawnSync } from 'node:child_process'

const LOCK_FILE = '/tmp/auth-shell-apt.lock'

/** Whether this process may install Debian packages: root, with apt-get and flock at hand. */
export function canUseAptGet(): boolean {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0
  const has = (command: string) => spawnSync(command, ['--version'], { stdio: 'ignore' }).status === 0
  return isRoot && has('apt-get') && has('flock')
}

/**
 * Runs `apt-get update` then `apt-get install -y <packages>`, one apt-get on the machine at a time. Throws with
 * the step that failed.
 * @example aptInstall(['nginx-light'], 'nginx')
 */
export function aptInstall(packages: string[], what: string, installArgs: string[] = []): void {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', ...installArgs, ...packages],
  ]) {
    const result = spawnSync('flock', [LOCK_FILE, 'apt-get', '-o', 'DPkg::Lock::Timeout=600', ...args], {
      stdio: 'inherit',
      env,
    })
    if (result.status !== 0)
      throw new Error(`Failed to install ${what}: apt-get ${args.join(' ')} exited ${result.status}.`)
  }
}
