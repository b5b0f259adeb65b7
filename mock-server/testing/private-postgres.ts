// A PostgreSQL cluster of a test's own, in a temporary folder, that the test may stop and start: the machine's
// cluster is shared by the other suites and must keep running (harness/postgres.ts). Needs root (the server runs
// as the `postgres` user) and the postgresql package's binaries; outside CI, privatePostgresBinaries() is null
// without them.
import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { unclaimedPort } from './ports.ts'

export interface PrivatePostgres {
  url: string
  stop(): void
  start(): void
  close(): void
}

function binaries(): string | null {
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return null
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0]
  const bin = version && join(root, version, 'bin')
  return bin && existsSync(join(bin, 'initdb')) ? bin : null
}

/**
 * The folder of PostgreSQL's binaries where a private cluster can start here; null (or, under CI=true, an error)
 * where it cannot. Cheap, so a test file can decide at collection whether its tests run.
 */
export function privatePostgresBinaries(): string | null {
  const bin = binaries()
  if (!bin || process.getuid?.() !== 0) {
    if (process.env.CI === 'true')
      throw new Error('Failed to start a private PostgreSQL: run as root with postgresql installed.')
    return null
  }
  return bin
}

/**
 * Starts a fresh cluster with the binaries privatePostgresBinaries() found. Call it from a hook, not at a module's
 * top level: a mutation run imports the file even when it filters its tests out, and then no afterAll closes it.
 */
export async function startPrivatePostgres(bin: string): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'private-postgres-'))
  const postgresUid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
  const postgresGid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
  chownSync(dir, postgresUid, postgresGid)
  const asPostgres = (command: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { stdio: 'pipe' })
  const data = join(dir, 'data')
  asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync'])
  // PostgreSQL binds it now and again after each stop: a port that port 0 never hands out (ports.ts).
  const port = await unclaimedPort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`
  const start = () =>
    void asPostgres('pg_ctl', ['-D', data, '-o', options, '-w', '-l', join(dir, 'log'), 'start'])
  const stop = () => void asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop'])
  start()
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    close() {
      try {
        stop()
      } catch {
        // Already stopped.
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
