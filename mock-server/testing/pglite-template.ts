// An in-memory PGlite starts by running initdb in WebAssembly: 2 to 4 s of CPU, paid by every test file (and every
// worker) that opens one. The files of a fresh cluster are the same each time, so they are dumped once per PGlite
// version into node_modules/.cache, and each engine starts from them in about a second
// (docs/decisions/025-ci-minutes.md). The cache only ever saves time: one missing, unreadable or unwritable costs an
// initdb, never a test.
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import { pgliteClient } from '../src/compose/sql-drivers.ts'
import type { SqlClient } from '../src/shared/sql.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

/** A file being written that is older than this was left by a process that died. */
const ABANDONED_MS = 10 * 60_000

/** Where the template of the installed PGlite lives: a new version makes a new file. */
export function templateFile(): string {
  const { version } = JSON.parse(
    readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8'),
  ) as { version: string }
  return join(root, 'node_modules/.cache/auth-shell', `pglite-${version}-template.tar`)
}

/**
 * The template's bytes, or null when there is none or it is no tar: PGlite takes anything else for gzip, and its
 * failed inflating escapes as an unhandled rejection (a file of zeros, as a crash can leave).
 */
function readTemplate(file: string): Buffer | null {
  try {
    const bytes = readFileSync(file)
    const tar =
      bytes.length >= 1024 && bytes.length % 512 === 0 && bytes.toString('latin1', 257, 262) === 'ustar'
    return tar ? bytes : null
  } catch {
    return null
  }
}

/** Removes what earlier runs left in the cache folder: other PGlite versions' templates, abandoned writes. */
function sweep(folder: string, file: string): void {
  for (const name of readdirSync(folder)) {
    if (!/^pglite-.*-template\.tar/.test(name) || name === basename(file)) continue
    const path = join(folder, name)
    const abandoned = !name.endsWith('.tmp') || Date.now() - statSync(path).mtimeMs > ABANDONED_MS
    if (abandoned) rmSync(path, { force: true })
  }
}

/** Saves the template if it can: written aside, flushed, then renamed, so a reader never sees half of one. */
function save(file: string, bytes: Uint8Array): void {
  const aside = `${file}.${randomBytes(6).toString('hex')}.tmp`
  try {
    mkdirSync(dirname(file), { recursive: true })
    sweep(dirname(file), file)
    const fd = openSync(aside, 'w')
    try {
      writeFileSync(fd, bytes)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(aside, file)
  } catch {
    // A read-only or full cache: this engine ran its own initdb, and the next one will too.
    try {
      rmSync(aside, { force: true })
    } catch {
      // Nothing was written there, or nothing can be removed from there.
    }
  }
}

/**
 * An in-memory PGlite started from the template. Where there is none, or it will not load, the engine runs initdb
 * and its files become the template.
 */
export async function openPgliteFromTemplate(file = templateFile()): Promise<SqlClient> {
  const template = readTemplate(file)
  if (template) {
    try {
      return pgliteClient(await PGlite.create({ loadDataDir: new Blob([new Uint8Array(template)]) }))
    } catch {
      // Not the files of a cluster this PGlite can start (cut short, or from another build): made again below.
    }
  }
  const db = await PGlite.create()
  save(file, new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer()))
  return pgliteClient(db)
}
