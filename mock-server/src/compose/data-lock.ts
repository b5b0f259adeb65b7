// The embedded store's one-writer lock, `<dir>/server.lock` (docs/mock-server.md, "Where the state lives"). Node
// only: sql-state.ts takes it before PGlite opens the folder.
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { join } from 'node:path'
import { isProcessAlive } from '../shared/process-alive.ts'

/** How often a holder marks its lock as alive, for a server in another pid namespace that cannot see its pid. */
export const LOCK_HEARTBEAT_MS = 5_000
/** A lock from another pid namespace not marked for this long is taken over: its holder has stopped. */
export const LOCK_STALE_MS = 20_000

/** A held lock. */
export interface HeldLock {
  /** Whether `server.lock` is still this server's own file; false once another server has taken it over. */
  held(): boolean
  /** Says the first start's cluster is whole: a start cut off before this is made again. */
  made(): void
  /** Ends the marks and removes the lock, if it is still this server's own. */
  release(): void
}

/**
 * Takes `dir` for this server, or stops with one line naming the holder and the file to remove. The lock names its
 * holder by pid, the pid's start time and its pid namespace (Linux /proc): in this namespace a lock whose pid is gone
 * or now another process's (a reboot, a restarted container) is taken over at once; a lock from another namespace
 * (another container on a shared volume), whose pid cannot be seen from here, is held while its holder marks it
 * (every 5 s) and taken over once it has not for 20 s. A holder that finds its lock taken (`held()` false: it was
 * frozen past that time) must stop writing: `onLost` is called once, from the marks or from `held()`. A first start
 * cut off before its cluster was whole (`server.making` left, or files but no PG_VERSION) is made again.
 */
export function lockDataDir(
  dir: string,
  report: (line: string) => void = () => undefined,
  onLost: () => void = () => undefined,
): HeldLock {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (cause) {
    throw new Error(`Failed to start: --data ${dir} cannot be made (${describe(cause)}).`, { cause })
  }
  const lock = join(dir, 'server.lock')
  const making = join(dir, 'server.making')
  const entries = readdirSync(dir).filter((name) => !name.startsWith('server.'))
  const halfMade = entries.length > 0 && !holdsDatabase(dir)
  // PGlite makes its cluster in whatever folder it is given: a folder of other files would get it among them.
  if (halfMade && !existsSync(lock) && !existsSync(making))
    throw new Error(`Failed to start: --data ${dir} holds other files; give a new or empty folder.`)
  const mine = holderText()
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const inode = create(dir, lock, mine)
    if (inode !== null) {
      sweep(dir)
      if (entries.length === 0 || halfMade) writeFileSync(making, '')
      if (halfMade) {
        for (const name of entries) rmSync(join(dir, name), { recursive: true, force: true })
        report(`The first start in ${dir} was cut off before its database was whole; it is made again.`)
      }
      return hold(lock, making, inode, onLost)
    }
    const seen = readLock(lock)
    const holder = holderOf(seen, lock)
    if (holder !== null) throw inUse(dir, lock, holder)
    takeOver(dir, lock, seen)
  }
  throw new Error(`Failed to start: ${lock} cannot be taken.`)
}

/** Whether `dir` holds a whole cluster: PGlite's PG_VERSION, and no first start cut off (`server.making`) in it. */
export function holdsDatabase(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION')) && !existsSync(join(dir, 'server.making'))
}

/** A name for a file of this start's own beside the lock: unique across pid namespaces, where pids repeat. */
const ownName = (lock: string, suffix: string) => `${lock}.${randomBytes(6).toString('hex')}.${suffix}`

/**
 * Creates the lock whole or not at all: written aside, then linked into place, so a rival never reads it empty. A
 * file system without hard links gets it created exclusively, then written. The lock's inode; null when a lock is
 * there.
 */
function create(dir: string, lock: string, text: string): number | null {
  const staged = ownName(lock, 'new')
  try {
    writeFileSync(staged, text, { mode: 0o600 })
    try {
      linkSync(staged, lock)
      return statSync(lock).ino
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'EEXIST') return null
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EXDEV') throw error
    }
    try {
      const fd = openSync(lock, 'wx', 0o600)
      writeSync(fd, text)
      const { ino } = fstatSync(fd)
      closeSync(fd)
      return ino
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null
      throw error
    }
  } catch (cause) {
    throw new Error(`Failed to start: --data ${dir} cannot be written (${describe(cause)}).`, { cause })
  } finally {
    rmSync(staged, { force: true })
  }
}

/** Files of starts cut off between their steps (`server.lock.<id>.new`, `.stale`), a minute old or more. */
function sweep(dir: string): void {
  for (const name of readdirSync(dir).filter((entry) =>
    /^server\.lock\.[0-9a-f]+\.(new|stale)$/.test(entry),
  )) {
    const path = join(dir, name)
    if (Date.now() - (modifiedAt(path) ?? Date.now()) >= 60_000)
      rmSync(path, { recursive: true, force: true })
  }
}

/** Marks the lock while it is this server's own, and says when it is not. */
function hold(lock: string, making: string, inode: number, onLost: () => void): HeldLock {
  let lost = false
  const held = () => {
    if (lost) return false
    let now: number | undefined
    try {
      now = statSync(lock).ino
    } catch {
      now = undefined
    }
    if (now === inode) return true
    lost = true
    clearInterval(heartbeat)
    onLost()
    return false
  }
  const heartbeat = setInterval(() => {
    if (!held()) return
    try {
      const now = new Date()
      utimesSync(lock, now, now)
    } catch {
      // Gone meanwhile: the next mark or statement finds it.
    }
  }, LOCK_HEARTBEAT_MS)
  heartbeat.unref()
  return {
    held,
    made: () => rmSync(making, { force: true }),
    release() {
      clearInterval(heartbeat)
      if (!lost && held()) unlinkSync(lock)
    },
  }
}

/**
 * Moves a stale lock aside by one rename, so that of two starts taking it over one wins; the other, finding it
 * gone or a live holder's lock in its place, puts that back and stops. Whoever's lock is not in place at the end
 * stops at its next statement (`held()`).
 */
function takeOver(dir: string, lock: string, seen: string | null): void {
  const aside = ownName(lock, 'stale')
  try {
    renameSync(lock, aside)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw new Error(`Failed to start: --data ${dir} cannot be written (${describe(error)}).`, {
      cause: error,
    })
  }
  const moved = readLock(aside)
  const holder = moved === seen ? null : holderOf(moved, aside)
  if (holder !== null) {
    // Back in place by a rename, which needs no hard links; a lock made meanwhile gives way to the older one.
    renameSync(aside, lock)
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

/**
 * A lock file's text, its first 256 bytes; null for anything but a file (a folder, a FIFO, gone), which no process
 * holds. Read without waiting: a FIFO would block a plain read for good.
 */
function readLock(lock: string): string | null {
  let fd: number
  try {
    fd = openSync(lock, constants.O_RDONLY | constants.O_NONBLOCK)
  } catch {
    return null
  }
  try {
    if (!fstatSync(fd).isFile()) return null
    const buffer = Buffer.alloc(256)
    return buffer.subarray(0, readSync(fd, buffer, 0, 256, 0)).toString('utf8')
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

/** The live server other than this one that `text` (read from `file`) names as the holder; null when none does. */
function holderOf(text: string | null, file: string): Holder | null {
  const [pidText, start, namespace] = (text ?? '').trim().split(' ')
  const pid = Number(pidText)
  if (!Number.isInteger(pid) || pid <= 0) return null
  if (namespace !== undefined && namespace !== pidNamespace()) {
    // Its pid means nothing here: it holds while it marks the lock.
    // A mark far in the future is no mark: a living holder keeps it near this host's now.
    const marked = modifiedAt(file)
    return marked !== undefined && Math.abs(Date.now() - marked) < LOCK_STALE_MS
      ? { pid, elsewhere: true }
      : null
  }
  if (pid === process.pid || !isProcessAlive(pid)) return null
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

/** An error's code, else its message. */
function describe(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  return code ?? message ?? String(error)
}
