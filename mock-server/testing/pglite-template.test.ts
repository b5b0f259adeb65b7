import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { openPgliteFromTemplate, templateFile } from './pglite-template.ts'

// Each template made is one initdb (4 s of CPU): the good one is the machine's own (made by the first engine of the
// run where there is none), and three tests below make one each, as they must.
const dir = mkdtempSync(join(tmpdir(), 'pglite-template-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const good = join(dir, 'good.tar')
beforeAll(async () => {
  await (await openPgliteFromTemplate()).close()
  copyFileSync(templateFile(), good)
}, 120_000)

/** A working engine from `file` answers, and keeps what it is given; a table `t` of another engine fails it. */
async function works(file: string): Promise<void> {
  const sql = await openPgliteFromTemplate(file)
  try {
    await sql.exec('CREATE TABLE t (n int); INSERT INTO t VALUES (41)')
    expect(await sql.query<{ n: number }>('SELECT n + 1 AS n FROM t')).toEqual([{ n: 42 }])
  } finally {
    await sql.close()
  }
}

test('engines start from the template, each without the tables of another, and leave it as it was', async () => {
  const file = join(dir, 'kept', 'template.tar')
  mkdirSync(join(dir, 'kept'))
  copyFileSync(good, file)
  const before = statSync(file).mtimeMs
  await works(file)
  await works(file)
  expect(statSync(file).mtimeMs).toBe(before)
}, 60_000)

test('where there is none, or no tar (zeros, as a crash can leave), the engine runs initdb and its files become the template; what earlier runs left is swept', async () => {
  const folder = join(dir, 'fresh')
  mkdirSync(folder)
  const file = join(folder, 'pglite-9.9.9-template.tar')
  writeFileSync(file, Buffer.alloc(readFileSync(good).length))
  writeFileSync(join(folder, 'pglite-0.0.1-template.tar'), 'another version')
  writeFileSync(join(folder, 'pglite-9.9.9-template.tar.abandoned.tmp'), 'a write whose process died')
  utimesSync(join(folder, 'pglite-9.9.9-template.tar.abandoned.tmp'), 0, 0)
  writeFileSync(join(folder, 'pglite-9.9.9-template.tar.writing.tmp'), 'a write under way')
  writeFileSync(join(folder, 'notes.txt'), 'not ours')
  await works(file)
  expect(readdirSync(folder).sort()).toEqual([
    'notes.txt',
    'pglite-9.9.9-template.tar',
    'pglite-9.9.9-template.tar.writing.tmp',
  ])
  expect(readFileSync(file).equals(Buffer.alloc(readFileSync(good).length))).toBe(false)
  const made = statSync(file).mtimeMs
  await works(file)
  expect(statSync(file).mtimeMs).toBe(made)
}, 60_000)

test('a template cut short is made again', async () => {
  const file = join(dir, 'short', 'template.tar')
  mkdirSync(join(dir, 'short'))
  writeFileSync(file, readFileSync(good).subarray(0, 4096))
  await works(file)
  expect(readFileSync(file).length).toBe(readFileSync(good).length)
}, 60_000)

test('a cache folder that cannot be written costs the template, not the engine', async () => {
  const blocker = join(dir, 'a-file')
  writeFileSync(blocker, '')
  const file = join(blocker, 'cache', 'template.tar')
  await works(file)
  expect(existsSync(join(blocker, 'cache'))).toBe(false)
}, 60_000)
