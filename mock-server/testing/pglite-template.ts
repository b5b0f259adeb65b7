// An in-memory PGlite starts by running initdb in WebAssembly: 2 to 4 s of CPU, paid by every test file (and every
// worker) that opens one. The files of a fresh cluster are the same each time, so they are made once per PGlite
// version, kept in node_modules/.cache, and each engine starts from them in about 0.6 s
// (docs/decisions/025-ci-minutes.md).
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { openPglite } from '../src/compose/sql-drivers.ts'
import type { SqlClient } from '../src/shared/sql.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** Where the template of the installed PGlite lives: a new version makes a new file. */
export function templateFile(): string {
  const { version } = JSON.parse(
    readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string }
  return join(root, 'node_modules/.cache/auth-shell', `pglite-${version}-template.tar`)
}

/** Makes the template: initdb once, its files dumped. Written aside and renamed, so a reader never sees half of one. */
async function makeTemplate(file: string): Promise<Blob> {
  const db = await PGlite.create()
  const dump = await db.dumpDataDir('none')
  await db.close()
  mkdirSync(join(file, '..'), { recursive: true })
  const aside = `${file}.${process.pid}.tmp`
  writeFileSync(aside, new Uint8Array(await dump.arrayBuffer()))
  renameSync(aside, file)
  return dump
}

/**
 * An in-memory PGlite started from the template, made first where there is none. A template that will not load (cut
 * short by a full disk, or from another build) is made again, so a bad cache costs one initdb, never a failed test.
 */
export async function openPgliteFromTemplate(file = templateFile()): Promise<SqlClient> {
  let template: Blob
  try {
    template = new Blob([readFileSync(file)])
  } catch {
    return openPglite(undefined, await makeTemplate(file))
  }
  try {
    return await openPglite(undefined, template)
  } catch {
    rmSync(file, { force: true })
    return openPglite(undefined, await makeTemplate(file))
  }
}
