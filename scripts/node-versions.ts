/**
 * Runs the node-side suites (vitest projects unit-node and contracts) on other Node versions than the one running
 * npm, so the README's "Node 22 and 24" is a result, not a hope (docs/mock-server.md, Node versions).
 *
 *   npm run test:node-versions            # NODE_VERSIONS, default 22,24
 *   tsx scripts/node-versions.ts 24       # versions as arguments win over NODE_VERSIONS
 *   tsx scripts/node-versions.ts 24 --script test:unit   # an npm script on that Node, its reports where it puts them
 *
 * `npm test` runs its unit suite and its memory contract leg this way on the active LTS (docs/decisions/025-ci-minutes.md):
 * each suite runs once, and the other legs run on the machine's Node.
 * Each version's binary comes from the registry's `node-<platform>-<arch>` package (`npm pack`, the npm client's own
 * registry and proxy settings), unpacked once into node_modules/.cache/node-versions/<major>/ and asked about again
 * after a week. Outside CI a version that cannot be fetched is skipped with one line; under CI=true it fails the run.
 * The versions run one after the other: each already uses both cores of the machine.
 */
import { execFileSync, spawn } from 'node:child_process'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { SQL_LEG_REQUESTS } from '../harness/leg-requests.ts'
import { fileURLToPath } from 'node:url'
import { isProcessAlive } from '../mock-server/src/shared/process-alive.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const CACHE = join(root, 'node_modules/.cache/node-versions')
const REFRESH_AFTER_MS = 7 * 24 * 3600 * 1000
const PROJECTS = ['unit-node', 'contracts']
const inCi = /^(1|true)$/i.test(process.env.CI ?? '')
/** How long a run waits for another one fetching the same binary, and when its lock counts as left behind. */
const LOCK_WAIT_MS = 600_000
const LOCK_STALE_MS = 900_000

/** The arguments: majors, and the npm scripts given with `--script` (none: the node-side projects). */
function readArguments(args: string[]): { majors: string[]; scripts: string[] } {
  const scripts: string[] = []
  const rest: string[] = []
  for (let i = 0; i < args.length; i++) {
    if (args[i] !== '--script') {
      rest.push(args[i]!)
      continue
    }
    const script = args[++i]
    if (script === undefined || script.startsWith('-')) {
      console.error('Failed to read the arguments: --script needs the name of an npm script.')
      process.exit(2)
    }
    scripts.push(script)
  }
  return { majors: readVersions(rest), scripts }
}

/** The majors asked for: arguments, else NODE_VERSIONS, else 22 and 24. */
function readVersions(args: string[]): string[] {
  const given = args.join(',') || process.env.NODE_VERSIONS || '22,24'
  const majors = given
    .split(',')
    .map((text) => text.trim())
    .filter(Boolean)
  const wrong = majors.find((major) => !/^\d{2}$/.test(major))
  if (wrong !== undefined) {
    console.error(`Failed to read the Node versions: ${wrong} is no major version (write 22,24).`)
    process.exit(2)
  }
  return majors
}

function npm(args: string[], cwd = root): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim()
}

/**
 * The newest published version of `major` (null: the registry has none), or why the registry gave no answer (it is
 * out of reach, or refused): the two were once one null, which called an offline machine's Node missing.
 */
function latestOf(pkg: string, major: string): { version: string | null } | { unanswered: string } {
  try {
    const output = npm(['view', `${pkg}@${major}`, 'version', '--json'])
    if (output === '') return { version: null }
    const listed = JSON.parse(output) as string | string[]
    return { version: [listed].flat().at(-1) ?? null }
  } catch (error) {
    const said = `${(error as { stderr?: string }).stderr ?? ''}${(error as Error).message}`
    if (/\bE404\b/.test(said)) return { version: null }
    return { unanswered: /npm (?:error|ERR!) code (\S+)/.exec(said)?.[1] ?? 'no answer' }
  }
}

/**
 * `work` alone among the runs of this script on this machine: `npm test` starts two of them at once, and a fetch
 * replaces the folder the other would run from. The lock names its holder; one whose holder is gone (killed) or older
 * than a fetch can take is taken over at once.
 */
function underLock<T>(work: () => T): T {
  mkdirSync(CACHE, { recursive: true })
  const lock = join(CACHE, '.lock')
  const owner = join(lock, 'pid')
  const deadline = Date.now() + LOCK_WAIT_MS
  const taken = (): boolean => {
    try {
      mkdirSync(lock)
      writeFileSync(owner, String(process.pid))
      return true
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      return false
    }
  }
  let said = false
  while (!taken()) {
    const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
    const holder = Number(existsSync(owner) ? readFileSync(owner, 'utf8') : 0)
    // A lock just made may not name its holder yet: only a second old one without a live holder is left behind.
    if (age > LOCK_STALE_MS || (age > 1_000 && !(holder > 0 && isProcessAlive(holder))))
      rmSync(lock, { recursive: true, force: true })
    else if (Date.now() > deadline) throw new Error(`${lock} stayed taken for ${LOCK_WAIT_MS / 1000} s`)
    else {
      if (!said) console.log(`Waiting for another run fetching Node (${lock}, process ${holder || '?'}).`)
      said = true
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250)
    }
  }
  try {
    return work()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** The cached binary of `major`, fetched or refreshed when due; null with the reason when there is none. */
function nodeBinary(major: string): { path: string; version: string } | { missing: string } {
  // A binary checked within the week needs no lock: nothing is fetched.
  return cachedBinary(major) ?? underLock(() => cachedBinary(major) ?? fetchedBinary(major))
}

/** Where `major` is kept: its folder, its binary, and the stamp naming its version (its time: the last check). */
function placeOf(major: string): { dir: string; path: string; stamp: string } {
  const dir = join(CACHE, major)
  return {
    dir,
    path: join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node'),
    stamp: join(dir, 'version.txt'),
  }
}

/** The cached binary of `major` and its version, when checked against the registry within the week. */
function cachedBinary(major: string): { path: string; version: string } | null {
  const { path, stamp } = placeOf(major)
  if (!existsSync(path) || !existsSync(stamp)) return null
  if (Date.now() - statSync(stamp).mtimeMs >= REFRESH_AFTER_MS) return null
  return { path, version: readFileSync(stamp, 'utf8').trim() }
}

function fetchedBinary(major: string): { path: string; version: string } | { missing: string } {
  const pkg = `node-${process.platform}-${process.arch}`
  const { dir, path, stamp } = placeOf(major)
  const cached = existsSync(path) && existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null
  const latest = latestOf(pkg, major)
  if ('unanswered' in latest) {
    if (!cached) return { missing: `the registry did not answer for ${pkg}@${major} (${latest.unanswered})` }
    // Asked again in a week, not on every run: each unanswered ask waits out npm's retries.
    writeFileSync(stamp, `${cached}\n`)
    console.log(
      `Node ${major}: the registry did not answer; the cached ${cached} runs, asked about again in a week.`,
    )
    return { path, version: cached }
  }
  if (latest.version === null) return { missing: `the registry has no ${pkg}@${major}` }
  if (latest.version === cached) {
    writeFileSync(stamp, `${cached}\n`)
    return { path, version: cached }
  }
  mkdirSync(CACHE, { recursive: true })
  const work = mkdtempSync(join(CACHE, `.fetch-${major}-`))
  try {
    const file = JSON.parse(npm(['pack', `${pkg}@${latest.version}`, '--json'], work))[0].filename as string
    execFileSync('tar', ['-xzf', file, 'package/bin'], { cwd: work })
    rmSync(dir, { recursive: true, force: true })
    renameSync(join(work, 'package'), dir)
    writeFileSync(stamp, `${latest.version}\n`)
    return { path, version: latest.version }
  } catch {
    return cached ? { path, version: cached } : { missing: `${pkg}@${latest.version} could not be fetched` }
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

/** The suites on one binary; resolves with its exit code. Reports go to the cache, not over npm test's own. */
function runSuites(node: string, major: string): Promise<number> {
  const args = [
    join(root, 'node_modules/vitest/vitest.mjs'),
    'run',
    ...PROJECTS.flatMap((p) => ['--project', p]),
  ]
  return exitCode(node, args, {
    CONTRACT_REPORT_DIR: join(CACHE, major, 'reports/contracts'),
    // The random requests of the SQL legs (harness/leg-requests.ts): every check still runs, in fewer minutes.
    ...SQL_LEG_REQUESTS,
  })
}

/** Runs `command` in the repository, its output shown, with `env` over this process's; resolves with its exit code. */
function exitCode(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } })
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)))
}

/** `npm run <script>` with `node` first on PATH, so npm, vitest and every child they start run on it. */
function runScript(node: string, script: string): Promise<number> {
  return exitCode('npm', ['run', script], { PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` })
}

async function main(): Promise<number> {
  const results: string[] = []
  let failed = false
  const { majors, scripts } = readArguments(process.argv.slice(2))
  for (const major of majors) {
    const binary = nodeBinary(major)
    if ('missing' in binary) {
      const line = `Node ${major}: skipped, ${binary.missing}.`
      if (inCi) {
        console.error(`${line.replace('skipped', 'not run')} CI=true runs every version: failing.`)
        return 1
      }
      results.push(line)
      continue
    }
    const what = scripts.length > 0 ? scripts.map((script) => `npm run ${script}`) : PROJECTS
    console.log(`Node ${binary.version}: ${what.join(' and ')} (${binary.path})`)
    const started = Date.now()
    let code = 0
    if (scripts.length === 0) code = await runSuites(binary.path, major)
    for (const script of scripts) {
      const exit = await runScript(binary.path, script)
      code ||= exit
    }
    const seconds = Math.round((Date.now() - started) / 1000)
    results.push(`Node ${binary.version}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s.`)
    failed ||= code !== 0
  }
  for (const line of results) console.log(line)
  return failed ? 1 : 0
}

process.exit(
  await main().catch((error: unknown) => {
    console.error(`Failed to run on another Node: ${error instanceof Error ? error.message : String(error)}.`)
    return 1
  }),
)
