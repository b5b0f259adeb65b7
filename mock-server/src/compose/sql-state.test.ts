// The embedded store's one-writer lock (docs/mock-server.md, "Where the state lives"): what a hostile pass found.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { lockDataDir, processStart } from './sql-state.ts'
import { scratchDir } from '../../testing/scratch-dir.ts'

const fresh = () => join(scratchDir('mock-lock'), 'state')

test('a lock naming this very process is taken over (a container restarted after kill -9 reuses the pid)', () => {
  const dir = fresh()
  mkdirSync(dir)
  writeFileSync(join(dir, 'server.lock'), String(process.pid))
  const release = lockDataDir(dir)
  expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(`${process.pid} ${processStart(process.pid)}`)
  release()
  expect(readdirSync(dir)).toEqual([])
})

test("a first start cut off before the cluster was whole is made again, saying so; others' files are refused", () => {
  const dir = fresh()
  mkdirSync(join(dir, 'base'), { recursive: true })
  writeFileSync(join(dir, 'server.lock'), '2147483646')
  const lines: string[] = []
  const release = lockDataDir(dir, (line) => lines.push(line))
  expect(readdirSync(dir)).toEqual(['server.lock'])
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
    lockDataDir(dir)()
    expect(readdirSync(dir)).toEqual([])
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
  const release = lockDataDir(dir)
  expect(readFileSync(join(dir, 'server.lock'), 'utf8')).toBe(`${process.pid} ${processStart(process.pid)}`)
  release()
  // The same pid with its own start time holds the folder, and the refusal says how to free it.
  writeFileSync(join(dir, 'server.lock'), `${parent} ${started}`)
  expect(() => lockDataDir(dir)).toThrow(
    `${dir} is in use by process ${parent}; the embedded store takes one server (use --database for several). If that process is no mock server, remove ${join(dir, 'server.lock')}.`,
  )
  expect(readdirSync(dir)).toEqual(['server.lock'])
  // As earlier releases wrote it, the pid alone: held while that pid lives.
  writeFileSync(join(dir, 'server.lock'), String(parent))
  expect(() => lockDataDir(dir)).toThrow(`in use by process ${parent}`)
})
