// Opens the SQL database main.ts was pointed at, takes the embedded store's one-writer lock, and migrates it
// (docs/mock-server.md, "Where the state lives"). Node only: main.ts imports it once the flags are read.
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  realpathSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { PRODUCT_MIGRATIONS } from '../product/storage/migrations.ts'
import { migrate } from '../shared/sql-migrate.ts'
import type { SqlClient } from '../shared/sql.ts'
import { openPglite, openPostgres } from './sql-drivers.ts'

export type StateLocation = { database: string } | { dataDir: string }

export interface OpenedState {
  client: SqlClient
  /** The migration versions this start applied (none when the database was current). */
  applied: number[]
  close(): Promise<void>
}

/**
 * Where `--data <path>` keeps the embedded store: the folder itself, or, for a JSON data file of earlier
 * releases, the folder `<path>.d` beside it (the file is imported into it once and left as it was).
 */
export function resolveDataPath(given: string): { dataDir: string; importFile?: string } {
  // A symbolic link is followed: PGlite's file system cannot open one.
  const path = existsSync(given) ? realpathSync(given) : given
  if (existsSync(path) && statSync(path).isFile()) return { dataDir: `${path}.d`, importFile: path }
  return { dataDir: path }
}

/**
 * A file given to --data must be a JSON data file of this server (format 1) before `<file>.d` is made for it: any
 * other file stops the start with one line that quotes none of it.
 */
export function checkImportFile(file: string): void {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (cause) {
    throw new Error(`Failed to start: --data ${file} cannot be read (${describe(cause)}).`, { cause })
  }
  let format: unknown
  try {
    format = (JSON.parse(text) as { format?: unknown } | null)?.format
  } catch {
    format = undefined
  }
  if (format !== 1)
    throw new Error(
      `Failed to start: --data ${file} is a file, and not a data file of this server; give a folder for the embedded store.`,
    )
}

export async function openSqlState(
  location: StateLocation,
  onError: (line: string) => void,
): Promise<OpenedState> {
  if ('database' in location) {
    const client = openPostgres(location.database, onError)
    try {
      return { client, applied: await migrate(client, PRODUCT_MIGRATIONS), close: () => client.close() }
    } catch (error) {
      await client.close().catch(() => undefined)
      // A refusal of migrate's own (a newer schema) already says why the start failed.
      if (error instanceof Error && error.message.startsWith('Failed to start:')) throw error
      throw new Error(`Failed to start: the database cannot be opened (${describe(error)}).`, {
        cause: error,
      })
    }
  }
  const release = lockDataDir(location.dataDir, onError)
  try {
    const client = await openPglite(location.dataDir)
    const applied = await migrate(client, PRODUCT_MIGRATIONS)
    return { client, applied, close: async () => (await client.close(), release()) }
  } catch (error) {
    release()
    throw error
  }
}

/**
 * The embedded store has one writer: a second server on the same folder stops with one line. The lock names its
 * holder by pid and, on Linux, the pid's start time, so a lock left by a process that is gone (kill -9) is taken
 * over, as is one whose pid now belongs to another process (a reboot or a restarted container hands pids out
 * again) or to this very one. A first start cut off before the cluster was whole (files but no PG_VERSION, under
 * this server's own lock file) is made again.
 */
export function lockDataDir(dir: string, report: (line: string) => void = () => undefined): () => void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (cause) {
    throw new Error(`Failed to start: --data ${dir} cannot be made (${describe(cause)}).`, { cause })
  }
  const lock = join(dir, 'server.lock')
  const entries = readdirSync(dir).filter(
    (name) => name !== 'server.lock' && !name.startsWith('server.lock.'),
  )
  const halfMade = entries.length > 0 && !entries.includes('PG_VERSION')
  // PGlite makes its cluster in whatever folder it is given: a folder of other files would get it among them.
  if (halfMade && !existsSync(lock))
    throw new Error(`Failed to start: --data ${dir} holds other files; give a new or empty folder.`)
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(lock, 'wx', 0o600)
      writeSync(fd, holderText(process.pid))
      closeSync(fd)
      if (halfMade) {
        for (const name of entries) rmSync(join(dir, name), { recursive: true, force: true })
        report(`The first start in ${dir} was cut off before its database was whole; it is made again.`)
      }
      return () => unlinkSync(lock)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      const seen = readLock(lock)
      const holder = holderOf(seen)
      if (holder !== null) throw inUse(dir, lock, holder, error)
      takeOver(lock, seen, dir)
    }
  }
  throw new Error(`Failed to start: ${lock} cannot be taken.`)
}

/**
 * Moves a stale lock aside by one rename, so that of two starts taking it over one wins; the other, finding it
 * gone or a live holder's lock in its place, puts that back and tries again or stops.
 */
function takeOver(lock: string, seen: string | null, dir: string): void {
  const aside = `${lock}.${process.pid}.stale`
  try {
    renameSync(lock, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  const moved = readLock(aside)
  const holder = moved === seen ? null : holderOf(moved)
  if (holder !== null) {
    try {
      linkSync(aside, lock)
    } catch {
      // Another start has taken the lock meanwhile; the next attempt meets it.
    }
    rmSync(aside, { recursive: true, force: true })
    throw inUse(dir, lock, holder)
  }
  rmSync(aside, { recursive: true, force: true })
}

const inUse = (dir: string, lock: string, holder: number, cause?: unknown) =>
  new Error(
    `Failed to start: ${dir} is in use by process ${holder}; the embedded store takes one server (use --database for several). If that process is no mock server, remove ${lock}.`,
    { cause },
  )

/** What a lock file says: `<pid> <start time>`, or `<pid>` as earlier releases wrote it. */
const holderText = (pid: number) => [pid, processStart(pid)].filter((part) => part !== undefined).join(' ')

/** A lock file's text; null for anything else (a folder, gone), which no process holds. */
function readLock(lock: string): string | null {
  try {
    return readFileSync(lock, 'utf8')
  } catch {
    return null
  }
}

/** The live process other than this one that `text` names as the holder; null when none does. */
function holderOf(text: string | null): number | null {
  const [pidText, start] = (text ?? '').trim().split(' ')
  const pid = Number(pidText)
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !isAlive(pid)) return null
  const now = processStart(pid)
  return start === undefined || now === undefined || now === start ? pid : null
}

/**
 * When the process `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat); undefined where there is
 * no /proc. A pid and its start name one process: a pid handed out again has another start.
 */
export function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]
  } catch {
    return undefined
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** An error's code or message: never a URL, which may carry a password. */
function describe(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  const text = (message ?? String(error)).replace(/\w+:\/\/\S+/g, '<url>')
  return code ? `${code}: ${text}` : text
}
