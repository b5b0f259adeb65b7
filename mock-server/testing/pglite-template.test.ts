import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { openPgliteFromTemplate } from './pglite-template.ts'
import { scratchDir } from './scratch-dir.ts'

/** A working engine answers, and keeps what it is given. */
async function works(file: string): Promise<void> {
  const sql = await openPgliteFromTemplate(file)
  try {
    await sql.exec('CREATE TABLE t (n int); INSERT INTO t VALUES (41)')
    expect(await sql.query<{ n: number }>('SELECT n + 1 AS n FROM t')).toEqual([{ n: 42 }])
  } finally {
    await sql.close()
  }
}

test('the first engine makes the template; the next starts from it and finds none of the first one’s tables', async () => {
  const file = join(scratchDir('pglite-template'), 'cache', 'template.tar')
  await works(file)
  const made = statSync(file).mtimeMs
  await works(file) // a table t from the first engine would make its CREATE TABLE fail
  expect(statSync(file).mtimeMs).toBe(made)
}, 60_000)

test('a template that will not load is made again, and the engine works', async () => {
  const file = join(scratchDir('pglite-template'), 'cache', 'template.tar')
  await works(file)
  const good = readFileSync(file)
  writeFileSync(file, good.subarray(0, 4096))
  await works(file)
  expect(readFileSync(file).length).toBe(good.length)
  expect(existsSync(`${file}.${process.pid}.tmp`)).toBe(false)
}, 60_000)
