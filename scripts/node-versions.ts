/**
 * Runs the node-side suites (vitest projects unit-node and contracts) on other Node versions than the one running
 * npm, so the README's "Node 22 and 24" is a result, not a hope (docs/mock-server.md, Node versions).
 *
 *   npm run test:node-versions            # NODE_VERSIONS, default 22,24
 *   tsx scripts/node-versions.ts 24       # versions as arguments win over NODE_VERSIONS
 *
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
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const CACHE = join(root, 'node_modules/.cache/node-versions')
const REFRESH_AFTER_MS = 7 * 24 * 3600 * 1000
const PROJECTS = ['unit-node', 'contracts']
const inCi = /^(1|true)$/i.test(process.env.CI ?? '')

/** The majors asked for: arguments, else NODE_VERSIONS, else 22 and 24. */
function readVersions(): string[] {
  const given = process.argv.slice(2).join(',') || process.env.NODE_VERSIONS || '22,24'
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

/** The newest published version of `major`, or null when the registry does not answer. */
function latestOf(pkg: string, major: string): string | null {
  try {
    const listed = JSON.parse(npm(['view', `${pkg}@${major}`, 'version', '--json'])) as string | string[]
    return [listed].flat().at(-1) ?? null
  } catch {
    return null
  }
}

/** The cached binary of `major`, fetched or refreshed when due; null with the reason when there is none. */
function nodeBinary(major: string): { path: string; version: string } | { missing: string } {
  const pkg = `node-${process.platform}-${process.arch}`
  const dir = join(CACHE, major)
  const path = join(dir, 'bin', process.platform === 'win32' ? 'node.exe' : 'node')
  const stamp = join(dir, 'version.txt')
  const cached = existsSync(path) && existsSync(stamp) ? readFileSync(stamp, 'utf8').trim() : null
  if (cached && Date.now() - statSync(stamp).mtimeMs < REFRESH_AFTER_MS) return { path, version: cached }
  const latest = latestOf(pkg, major)
  if (latest === null)
    return cached ? { path, version: cached } : { missing: `the registry has no ${pkg}@${major} here` }
  if (latest === cached) {
    writeFileSync(stamp, `${cached}\n`)
    return { path, version: cached }
  }
  mkdirSync(CACHE, { recursive: true })
  const work = mkdtempSync(join(CACHE, `.fetch-${major}-`))
  try {
    const file = JSON.parse(npm(['pack', `${pkg}@${latest}`, '--json'], work))[0].filename as string
    execFileSync('tar', ['-xzf', file, 'package/bin'], { cwd: work })
    rmSync(dir, { recursive: true, force: true })
    renameSync(join(work, 'package'), dir)
    writeFileSync(stamp, `${latest}\n`)
    return { path, version: latest }
  } catch {
    return cached ? { path, version: cached } : { missing: `${pkg}@${latest} could not be fetched` }
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
  const child = spawn(node, args, {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      CONTRACT_REPORT_DIR: join(CACHE, major, 'reports/contracts'),
      // 3,000 generated requests, as on the SQL legs (10,000 on npm's Node): every check still runs, and npm test
      // stays within its minutes (docs/contract-suite.md).
      GENERATED_INPUT_REQUESTS: process.env.GENERATED_INPUT_REQUESTS ?? '3000',
    },
  })
  return new Promise((resolve) => child.on('exit', (code) => resolve(code ?? 1)))
}

async function main(): Promise<number> {
  const results: string[] = []
  let failed = false
  for (const major of readVersions()) {
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
    console.log(`Node ${binary.version}: ${PROJECTS.join(' and ')} (${binary.path})`)
    const started = Date.now()
    const code = await runSuites(binary.path, major)
    const seconds = Math.round((Date.now() - started) / 1000)
    results.push(`Node ${binary.version}: ${code === 0 ? 'passed' : 'FAILED'} in ${seconds} s.`)
    failed ||= code !== 0
  }
  for (const line of results) console.log(line)
  return failed ? 1 : 0
}

process.exit(await main())
