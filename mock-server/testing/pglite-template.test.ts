import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openPgliteFromTemplate } from './pglite-template.ts'

// Each template made here is one initdb (seconds of CPU), so the file makes two: one where there is none, one
// where the one there will not load.
const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'))
const file = join(dir, 'cache', 'template.tar')
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** A working engine answers, and keeps what it is given; a table `t` left from another engine fails it. */
async function works(): Promise<void> {
  const sql = await openPgliteFromTemplate(file)
  try {
    await sql.exec('CREATE TABLE t (n int); INSERT INTO t VALUES (41)')
    expect(await sql.query<{ n: number }>('SELECT n + 1 AS n FROM t')).toEqual([{ n: 42 }])
  } finally {
    await sql.close()
  }
}

beforeAll(async () => {
  expect(existsSync(file)).toBe(false)
  await works()
}, 60_000)

test('where there was none, the first engine made the template; the next starts from it and finds none of the first one’s tables', async () => {
  const made = statSync(file).mtimeMs
  await works()
  expect(statSync(file).mtimeMs).toBe(made)
  expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false)
}, 60_000)

test('a template that will not load is made again, and the engine works', async () => {
  const good = readFileSync(file)
  writeFileSync(file, good.subarray(0, 4096))
  await works()
  expect(readFileSync(file).length).toBe(good.length)
}, 60_000)
