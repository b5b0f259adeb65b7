// The embedded store's one-writer lock (docs/mock-server.md, "Where the state lives"): what a hostile pass found.
import { execFileSync, spawn } from 'node:child_process'
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { join } from 'node:path'
import { expect, test, vi } from 'vitest'
import { LOCK_HEARTBEAT_MS, LOCK_STALE_MS, lockDataDir, pidNamespace, processStart } from './data-lock.ts'
import { scratchDir } from '../../testing/scratch-dir.ts'

const fresh = () => join(scratchDir('mock-lock'), 'state')
/** What this process writes into a lock. */
const mine = () => `${process.pid} ${processStart(process.pid)} ${pidNamespace()}`

test('a lock naming this very process is taken over (a container restarted after kill -9 reuses the pid)', () => {
  const dir = fresh()
  mkdirSync(dir)
  writeFileSync(join(dir, 'server.lock'), String(process.pid))
  const { release } = lockDataDir(dir)
  expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(mine())
  release()
  expect(readdirSync(dir)).toEqual(['server.making'])
})

test("a first start cut off before the cluster was whole is made again, saying so; others' files are refused", () => {
  const dir = fresh()
  mkdirSync(join(dir, 'base'), { recursive: true })
  writeFileSync(join(dir, 'server.lock'), '2147483646')
  const lines: string[] = []
  const { release } = lockDataDir(dir, (line) => lines.push(line))
  expect(readdirSync(dir).sort()).toEqual(['server.lock', 'server.making'])
  expect(lines).toEqual([
    `The first start in ${dir} was cut off before its database was whole; it is made again.`,
  ])
  release()
  const others = fresh()
  mkdirSync(others)
  writeFileSync(join(others, 'notes.txt'), 'mine')
  expect(() => lockDataDir(others)).toThrow(`--data ${others} holds other files`)
  expect(readdirSync(others)).toEqual(['notes.txt'])
})

test('a lock file that is a folder or holds garbage is taken over', () => {
  for (const plant of [(lock: string) => mkdirSync(lock), (lock: string) => writeFileSync(lock, 'garbage')]) {
    const dir = fresh()
    mkdirSync(dir)
    plant(join(dir, 'server.lock'))
    lockDataDir(dir).release()
    expect(readdirSync(dir)).toEqual(['server.making'])
  }
})

test("a lock whose pid another process now has (a reboot, a restarted container) is taken over; its holder's is not", () => {
  const dir = fresh()
  mkdirSync(dir)
  const parent = process.ppid
  const started = processStart(parent)!
  expect(started).toMatch(/^\d+$/)
  // The parent process is alive, but started at another time than the lock says: the lock is stale.
  writeFileSync(join(dir, 'server.lock'), `${parent} ${Number(started) + 1}`)
  const { release } = lockDataDir(dir)
  expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(mine())
  release()
  // The same pid with its own start time holds the folder, and the refusal says how to free it.
  writeFileSync(join(dir, 'server.lock'), `${parent} ${started}`)
  expect(() => lockDataDir(dir)).toThrow(
    `${dir} is in use by process ${parent}; the embedded store takes one server (use --database for several). If that process is no mock server, remove ${join(dir, 'server.lock')}.`,
  )
  expect(readdirSync(dir).sort()).toEqual(['server.lock', 'server.making'])
  // As earlier releases wrote it, the pid alone: held while that pid lives.
  writeFileSync(join(dir, 'server.lock'), String(parent))
  expect(() => lockDataDir(dir)).toThrow(`in use by process ${parent}`)
})

test('a lock from another pid namespace (a container) holds while its holder marks it, and is taken over after', () => {
  const dir = fresh()
  mkdirSync(dir)
  const lock = join(dir, 'server.lock')
  // Pid 1 of a namespace that is not this one: from here, only the lock's marks say whether it lives.
  writeFileSync(lock, '1 4242 1')
  expect(() => lockDataDir(dir)).toThrow(`is in use by process 1 of another pid namespace (a container)`)
  const unmarked = (Date.now() - LOCK_STALE_MS - 1_000) / 1000
  utimesSync(lock, unmarked, unmarked)
  const { release } = lockDataDir(dir)
  expect(readFileSync(lock, 'utf8')).toBe(mine())
  release()
})

test('a holder marks its lock; taken over while frozen, it learns so once and leaves the new lock', async () => {
  const dir = fresh()
  const lock = join(dir, 'server.lock')
  let lost = 0
  const { held, release } = lockDataDir(dir, undefined, () => (lost += 1))
  const past = (Date.now() - 60_000) / 1000
  utimesSync(lock, past, past)
  await vi.waitFor(() => expect(Date.now() - statSync(lock).mtimeMs).toBeLessThan(LOCK_STALE_MS), {
    timeout: LOCK_HEARTBEAT_MS * 3,
  })
  expect(held()).toBe(true)
  // Another server took the folder over (a new file in the lock's place), as after a pause past the marks.
  writeFileSync(join(dir, 'taken'), 'another server')
  renameSync(join(dir, 'taken'), lock)
  expect(held()).toBe(false)
  expect(held()).toBe(false)
  expect(lost).toBe(1)
  release()
  expect(readFileSync(lock, 'utf8')).toBe('another server')
}, 30_000)

test('a first start cut off after PG_VERSION, before it was whole, is made again', () => {
  const dir = fresh()
  const first = lockDataDir(dir)
  // The start made the cluster's first files, then died: its marker is still there.
  writeFileSync(join(dir, 'PG_VERSION'), '17')
  writeFileSync(join(dir, 'server.lock'), '2147483646')
  const lines: string[] = []
  const second = lockDataDir(dir, (line) => lines.push(line))
  expect(lines).toEqual([
    `The first start in ${dir} was cut off before its database was whole; it is made again.`,
  ])
  expect(readdirSync(dir).sort()).toEqual(['server.lock', 'server.making'])
  second.made()
  second.release()
  first.release()
  // Once made, the same files are a whole cluster: nothing is removed.
  writeFileSync(join(dir, 'PG_VERSION'), '17')
  const third = lockDataDir(dir)
  expect(readdirSync(dir).sort()).toEqual(['PG_VERSION', 'server.lock'])
  third.release()
})

test('a lock that is a FIFO, or marked far in the future by another namespace, is taken over, never waited on', () => {
  const dir = fresh()
  mkdirSync(dir)
  const lock = join(dir, 'server.lock')
  execFileSync('mkfifo', [lock])
  lockDataDir(dir).release()
  writeFileSync(lock, '1 4242 1')
  const future = (Date.now() + 86_400_000) / 1000
  utimesSync(lock, future, future)
  lockDataDir(dir).release()
  expect(readdirSync(dir)).toEqual(['server.making'])
})

test('two starts on one stale lock at the same moment: exactly one takes it, every time', async () => {
  // Another process races this one: it takes each folder when told, and holds it until told to let go.
  const code = [
    `const { lockDataDir } = await import(${JSON.stringify(new URL('./data-lock.ts', import.meta.url).href)})`,
    'let release',
    "process.on('message', (dir) => {",
    "  if (dir === '') { release?.(); release = undefined; process.send('let go'); return }",
    "  try { release = lockDataDir(dir).release; process.send('took') } catch { process.send('refused') }",
    '})',
    "process.send('ready')",
  ].join('\n')
  const rival = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  const next = () => new Promise<unknown>((resolve) => rival.once('message', resolve))
  try {
    expect(await next()).toBe('ready')
    for (let round = 0; round < 40; round += 1) {
      const dir = fresh()
      mkdirSync(dir)
      writeFileSync(join(dir, 'server.lock'), `2147483646 1 ${pidNamespace()}`)
      const answer = next()
      rival.send(dir)
      let release: (() => void) | undefined
      try {
        release = lockDataDir(dir).release
      } catch (error) {
        expect(String(error)).toContain('is in use by process')
      }
      const theirs = await answer
      expect([release !== undefined, theirs === 'took'], `round ${round}`).toSatisfy(
        ([here, there]: boolean[]) => here !== there,
      )
      release?.()
      const letGo = next()
      rival.send('')
      await letGo
    }
  } finally {
    rival.kill()
  }
}, 120_000)
