// A local PostgreSQL for the suites' PostgreSQL legs (docs/contract-suite.md: "Every store"). It uses
// TEST_DATABASE_URL when set; else, on a machine where it may (root, Debian's packages), it installs PostgreSQL
// when missing, starts the cluster, and makes a role with a fresh random password and a database for the tests.
// Under CI=true a PostgreSQL that cannot be had is a failure, never a skipped leg.
import { execFileSync, spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { aptInstall } from './apt.ts'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

export type PostgresTarget = { url: string } | { skipped: string }

const ROLE = 'auth_shell_test'
const DATABASE = 'auth_shell_test'

const run = (command: string, args: string[]) =>
  execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })

/** Runs SQL as the cluster's superuser (peer authentication over the local socket). */
const asPostgres = (sql: string, database = 'postgres') =>
  run('runuser', [
    '-u',
    'postgres',
    '--',
    'psql',
    '-X',
    '-q',
    '-t',
    '-A',
    '-v',
    'ON_ERROR_STOP=1',
    '-d',
    database,
    '-c',
    sql,
  ])

function installIfMissing(): void {
  if (existsSync('/usr/bin/pg_ctlcluster')) return
  console.log('Installing PostgreSQL (apt-get install postgresql)...')
  aptInstall(['postgresql'], 'PostgreSQL')
}

/** The first cluster `pg_lsclusters` lists: version, name and port. */
function firstCluster(): { version: string; name: string; port: string; online: boolean } {
  const line = run('pg_lsclusters', ['--no-header']).trim().split('\n')[0]
  if (!line) throw new Error('no PostgreSQL cluster exists (pg_lsclusters lists none)')
  const [version, name, port, status] = line.split(/\s+/)
  return { version: version!, name: name!, port: port!, online: status === 'online' }
}

/** How long a start, crash recovery included, may take before the legs give up. */
const START_TIMEOUT_S = 300

/**
 * Returns once the cluster takes connections. One already "online" may still be recovering from a crash, when psql
 * is refused with "the database system is not yet accepting connections".
 */
function awaitAcceptingConnections(port: string): void {
  const deadline = Date.now() + START_TIMEOUT_S * 1000
  for (;;) {
    const probe = spawnSync('pg_isready', ['-q', '-h', '127.0.0.1', '-p', port, '-t', '5'])
    if (probe.status === 0) return
    if (Date.now() > deadline)
      throw new Error(`PostgreSQL on port ${port} took no connections within ${START_TIMEOUT_S} s`)
    spawnSync('sleep', ['1'])
  }
}

const PASSWORD_FILE = join(
  process.env.XDG_CACHE_HOME || join(homedir(), '.cache'),
  'auth-shell',
  'postgres-test-password',
)

function readPassword(): string | null {
  try {
    return readFileSync(PASSWORD_FILE, 'utf8').trim() || null
  } catch {
    return null
  }
}

function ensureLocal(): string {
  installIfMissing()
  const cluster = firstCluster()
  // After a crash the start replays its WAL first, which took over pg_ctl's default 60 s on a busy machine.
  if (!cluster.online)
    run('pg_ctlcluster', [cluster.version, cluster.name, 'start', '--', '-t', String(START_TIMEOUT_S)])
  awaitAcceptingConnections(cluster.port)
  const exists = asPostgres(`SELECT 1 FROM pg_roles WHERE rolname = '${ROLE}'`).trim() === '1'
  // One password per machine user, kept beside their other caches (never in the repository): two checkouts or two
  // runs side by side share the role, and neither changes the password under the other.
  let password = readPassword()
  if (!exists || password === null) {
    password = randomBytes(18).toString('base64url')
    asPostgres(`${exists ? 'ALTER' : 'CREATE'} ROLE ${ROLE} LOGIN CREATEDB PASSWORD '${password}'`)
    mkdirSync(dirname(PASSWORD_FILE), { recursive: true, mode: 0o700 })
    writeFileSync(PASSWORD_FILE, password, { mode: 0o600 })
  }
  // Each test makes and drops a schema of its own, so the database is shared, never dropped under a running suite.
  if (asPostgres(`SELECT 1 FROM pg_database WHERE datname = '${DATABASE}'`).trim() !== '1')
    asPostgres(`CREATE DATABASE ${DATABASE} OWNER ${ROLE}`)
  return `postgres://${ROLE}:${password}@127.0.0.1:${cluster.port}/${DATABASE}`
}

/** Held while one process installs, starts or sets up PostgreSQL: the legs of `npm test` start side by side. */
const LOCK_FILE = '/tmp/auth-shell-postgres.lock'
const SELF = fileURLToPath(import.meta.url)

/** ensureLocal in a child holding the lock (flock releases it even when the child is killed); its URL, or throws. */
function ensureLocalLocked(): string {
  const child = spawnSync('flock', [LOCK_FILE, process.execPath, '--import', 'tsx', SELF, '--ensure-local'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  if (child.error) throw child.error
  if (child.status !== 0) throw new Error(child.stderr.trim().split('\n').at(-1) || `exit ${child.status}`)
  return child.stdout.trim().split('\n').at(-1)!
}

if (process.argv[1] === SELF && process.argv[2] === '--ensure-local') {
  try {
    process.stdout.write(`${ensureLocal()}\n`)
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message.split('\n')[0] : String(error)}\n`)
    process.exitCode = 1
  }
}

/**
 * Where the tests find PostgreSQL, or why they cannot. Throws under CI=true rather than skip.
 * @example
 * const target = ensurePostgres()
 * if ('url' in target) process.env.TEST_DATABASE_URL = target.url
 */
export function ensurePostgres(): PostgresTarget {
  if (process.env.TEST_DATABASE_URL) return { url: process.env.TEST_DATABASE_URL }
  try {
    if (process.getuid?.() !== 0) throw new Error('starting one needs root; set TEST_DATABASE_URL instead')
    return { url: ensureLocalLocked() }
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0]! : String(error)
    if (process.env.CI === 'true')
      throw new Error(`Failed to get a PostgreSQL for the tests: ${reason}`, { cause: error })
    return { skipped: `No PostgreSQL for the tests (${reason}); its legs are skipped.` }
  }
}

/**
 * A fresh schema on `databaseUrl` and the URL whose connections land in it, for servers started as processes (the
 * cluster soak, the balancer leg); `drop` removes it.
 */
export async function freshSchema(databaseUrl: string, prefix: string) {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: databaseUrl })
  await admin.connect()
  await admin.query(`CREATE SCHEMA ${schema}`)
  const url = new URL(databaseUrl)
  url.searchParams.set('options', `-c search_path=${schema},public`)
  return {
    url: url.href,
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      await admin.end()
    },
  }
}
