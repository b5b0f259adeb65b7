// The embedded store's one-writer lock, `<dir>/server.lock` (docs/mock-server.md, "Where the state lives"). Node
// only: sql-state.ts takes it before PGlite opens the folder.
import {
  closeSync,
  existsSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'

/** How often a holder marks its lock as alive, for a server in another pid namespace that cannot see its pid. */
export const LOCK_HEARTBEAT_MS = 5_000
/** A lock from another pid namespace not marked for this long is taken over: its holder has stopped. */
export const LOCK_STALE_MS = 20_000

/** A held lock: `release` ends the heartbeat and removes the lock if it is still this server's. */
export type ReleaseLock = () => void

/**
 * Takes `dir` for this server, or stops with one line naming the holder and the file to remove. The lock names its
 * holder by pid, the pid's start time and its pid namespace (Linux /proc): in this namespace a lock whose pid is gone
 * or now another process's (a reboot, a restarted container) is taken over at once; a lock from another namespace
 * (another container on a shared volume), whose pid cannot be seen from here, is held while its holder marks it
 * (every 5 s) and taken over once it has not for 20 s. A first start cut off before the cluster was whole (files but
 * no PG_VERSION, under this server's own lock file) is made again.
 */
export function lockDataDir(dir: string, report: (line: string) => void = () => undefined): ReleaseLock {
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
  const mine = holderText()
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (create(lock, mine)) {
      if (halfMade) {
        for (const name of entries) rmSync(join(dir, name), { recursive: true, force: true })
        report(`The first start in ${dir} was cut off before its database was whole; it is made again.`)
      }
      return hold(lock, mine)
    }
    const seen = readLock(lock)
    const holder = holderOf(seen, lock)
    if (holder !== null) throw inUse(dir, lock, holder)
    takeOver(lock, seen, dir)
  }
  throw new Error(`Failed to start: ${lock} cannot be taken.`)
}

/**
 * Creates the lock whole or not at all: written aside, then linked into place, so a rival never reads it empty. A
 * file system without hard links gets it created exclusively, then written. False when a lock is there.
 */
function create(lock: string, text: string): boolean {
  const staged = `${lock}.${process.pid}.new`
  writeFileSync(staged, text, { mode: 0o600 })
  try {
    linkSync(staged, lock)
    return true
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'EEXIST') return false
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error
    try {
      const fd = openSync(lock, 'wx', 0o600)
      writeSync(fd, text)
      closeSync(fd)
      return true
    } catch (fallback) {
      if ((fallback as NodeJS.ErrnoException).code === 'EEXIST') return false
      throw fallback
    }
  } finally {
    rmSync(staged, { force: true })
  }
}

/** Marks the lock as alive until released; a release removes it only while it is still `text`. */
function hold(lock: string, text: string): ReleaseLock {
  const heartbeat = setInterval(() => {
    try {
      const now = new Date()
      utimesSync(lock, now, now)
    } catch {
      // Gone or taken: the next start judges what is there.
    }
  }, LOCK_HEARTBEAT_MS)
  heartbeat.unref()
  return () => {
    clearInterval(heartbeat)
    if (readLock(lock) === text) unlinkSync(lock)
  }
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
  const holder = moved === seen ? null : holderOf(moved, aside)
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

interface Holder {
  pid: number
  /** In another pid namespace: the pid is that namespace's. */
  elsewhere: boolean
}

const inUse = (dir: string, lock: string, holder: Holder) =>
  new Error(
    `Failed to start: ${dir} is in use by process ${holder.pid}${holder.elsewhere ? ' of another pid namespace (a container)' : ''}; the embedded store takes one server (use --database for several). If that process is no mock server, remove ${lock}.`,
  )

/** What a lock file says: `<pid> <start time> <pid namespace>`; earlier releases wrote `<pid>` alone. */
function holderText(): string {
  return [process.pid, processStart(process.pid), pidNamespace()]
    .filter((part) => part !== undefined)
    .join(' ')
}

/** A lock file's text; null for anything else (a folder, gone), which no process holds. */
function readLock(lock: string): string | null {
  try {
    return readFileSync(lock, 'utf8')
  } catch {
    return null
  }
}

/** The live server other than this one that `text` (read from `file`) names as the holder; null when none does. */
function holderOf(text: string | null, file: string): Holder | null {
  const [pidText, start, namespace] = (text ?? '').trim().split(' ')
  const pid = Number(pidText)
  if (!Number.isInteger(pid) || pid <= 0) return null
  if (namespace !== undefined && namespace !== pidNamespace()) {
    // Its pid means nothing here: it holds while it marks the lock.
    const marked = modifiedAt(file)
    return marked !== undefined && Date.now() - marked < LOCK_STALE_MS ? { pid, elsewhere: true } : null
  }
  if (pid === process.pid || !isAlive(pid)) return null
  const now = processStart(pid)
  return start === undefined || now === undefined || now === start ? { pid, elsewhere: false } : null
}

function modifiedAt(file: string): number | undefined {
  try {
    return statSync(file).mtimeMs
  } catch {
    return undefined
  }
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

/** This process's pid namespace, e.g. `4026531836`; undefined where there is no /proc. */
export function pidNamespace(): string | undefined {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1]
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

/** An error's code or message. */
function describe(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return code ? `${code}: ${message ?? String(error)}` : (message ?? String(error))
}
