/**
 * The e2e suite's build of the web app: `tsx scripts/run-e2e-build.ts <outDir>`.
 * When nothing the last build read has changed, it copies that build instead of building again.
 * E2E_BUILD_CACHE=0 always builds. docs/decisions/015-suite-speed.md says why.
 */
import { createHash } from 'node:crypto'
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'

const root = fileURLToPath(new URL('..', import.meta.url))
const CACHE = join(root, 'node_modules/.cache/e2e-web')
/** The list of files the last build read (paths relative to the root), replaced whole after each build. */
const INPUTS = join(CACHE, 'inputs.json')
const FIXED_INPUTS = ['web/vite.config.ts', 'web/index.html', 'tsconfig.json', 'package-lock.json']

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? listFiles(path) : [path]
  })
}

/** The hash of these files' names and contents and of the environment the config reads; null if one is gone. */
function keyOf(files: readonly string[]): string | null {
  const hash = createHash('sha256').update(`SENTRY_DSN=${process.env.SENTRY_DSN ?? ''}\n`)
  const all = [
    ...new Set([...FIXED_INPUTS, ...listFiles(join(root, 'web/public')).map(rel), ...files]),
  ].sort()
  for (const file of all) {
    const path = join(root, file)
    if (!existsSync(path)) return null
    hash.update(`${file}\n`).update(readFileSync(path)).update('\n')
  }
  return hash.digest('hex').slice(0, 32)
}

const rel = (path: string) => relative(root, path).split('\\').join('/')

/** Records the files of every module the build loads from this repository (not node_modules, not virtual). */
function recordInputs(into: Set<string>): Plugin {
  return {
    name: 'e2e-build:record-inputs',
    apply: 'build',
    buildEnd() {
      for (const id of this.getModuleIds()) {
        const path = id.split('?')[0]!
        if (path.startsWith('\0') || path.includes('/node_modules/') || !path.startsWith(root)) continue
        if (existsSync(path)) into.add(rel(path))
      }
    },
  }
}

function readInputs(): string[] | null {
  try {
    return JSON.parse(readFileSync(INPUTS, 'utf8')) as string[]
  } catch {
    return null
  }
}

async function main(): Promise<void> {
  const outDir = resolve(process.argv[2] ?? '')
  if (!process.argv[2]) throw new Error('Failed to build: usage tsx scripts/run-e2e-build.ts <outDir>.')
  const useCache = process.env.E2E_BUILD_CACHE !== '0'
  const previous = useCache ? readInputs() : null
  const previousKey = previous && keyOf(previous)
  if (previousKey && existsSync(join(CACHE, previousKey))) {
    try {
      rmSync(outDir, { recursive: true, force: true })
      cpSync(join(CACHE, previousKey), outDir, { recursive: true })
      console.log(`e2e build: sources unchanged, reused ${rel(join(CACHE, previousKey))}`)
      return
    } catch (error) {
      console.log(`e2e build: could not reuse the cached build (${(error as Error).message}); building`)
    }
  }

  const inputs = new Set<string>()
  // The e2e build: lighter compression and no source maps (web/vite.config.ts reads it; nothing else sets it).
  process.env.E2E_BUILD = '1'
  // Loaded only to build: a reused build costs a copy, not Vite's start.
  const { build } = await import('vite')
  await build({
    configFile: join(root, 'web/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
    plugins: [recordInputs(inputs)],
  })
  if (!useCache) return
  const files = [...inputs].sort()
  const key = keyOf(files)
  if (!key) return
  // Entries are renamed into place once complete, so a parallel run copies a whole build or none.
  mkdirSync(CACHE, { recursive: true })
  const entry = join(CACHE, key)
  if (!existsSync(entry)) {
    const temporary = `${entry}.${process.pid}.tmp`
    cpSync(outDir, temporary, { recursive: true })
    try {
      renameSync(temporary, entry)
    } catch {
      rmSync(temporary, { recursive: true, force: true })
    }
  }
  const list = `${INPUTS}.${process.pid}.tmp`
  writeFileSync(list, `${JSON.stringify(files)}\n`)
  renameSync(list, INPUTS)
  // Keep this build and drop older ones (each is a few MB).
  for (const name of readdirSync(CACHE))
    if (name !== key && name !== 'inputs.json' && !name.endsWith('.tmp'))
      rmSync(join(CACHE, name), { recursive: true, force: true })
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
