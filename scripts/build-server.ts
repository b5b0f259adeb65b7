/**
 * `npm run build:server`: the mock server compiled ahead to one file, so a start compiles, parses and hashes
 * nothing (docs/decisions/013-mock-server-speed.md).
 *
 * Writes into `dist/mock-server/` (`--out <dir>` elsewhere):
 * - `main.js`: the bundle, with documents parsed and seeded hashes made at build time (`BUILD_TIME`);
 * - `inputs.json`: every file the build read, so mock-server/start.mjs never serves a stale build.
 */
import { statSync, mkdirSync, readFileSync, writeFileSync, renameSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { hash } from '@node-rs/argon2'
import { dictionary } from '@zxcvbn-ts/language-common'
import { build, type Plugin } from 'esbuild'
import { parse } from 'yaml'
import { ARGON2_PARAMS } from '../mock-server/src/shared/constants.ts'
import { SEED_ACCOUNTS } from '../mock-server/src/product/domain/seed.ts'
import type { BuildTime } from '../mock-server/src/shared/build-time.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const { values } = parseArgs({ options: { out: { type: 'string' }, meta: { type: 'boolean' } } })
const outDir = resolve(values.out ?? join(root, 'dist/mock-server'))
const DOCUMENTS = { api: 'api/openapi.yaml', control: 'api/control.openapi.yaml' } as const
/** Inputs esbuild does not see: the documents, this script, and the lock file (which pins every bundled package). */
const EXTRA_INPUTS = [...Object.values(DOCUMENTS), 'scripts/build-server.ts', 'package-lock.json']

function stamp(file: string): [number, number] | null {
  const stats = statSync(join(root, file), { throwIfNoEntry: false })
  return stats ? [stats.mtimeMs, stats.size] : null
}

/**
 * The compiled server carries only the one word list it reads (`passwords-common`), as JSON.
 */
const commonPasswordsOnly: Plugin = {
  name: 'common-passwords-only',
  setup(esbuild) {
    esbuild.onResolve({ filter: /^@zxcvbn-ts\/language-common$/ }, () => ({
      path: 'passwords-common',
      namespace: 'common-passwords',
    }))
    esbuild.onLoad({ filter: /.*/, namespace: 'common-passwords' }, () => ({
      contents: `export const dictionary = { 'passwords-common': JSON.parse(${JSON.stringify(JSON.stringify(dictionary['passwords-common']))}) }`,
      loader: 'js',
    }))
  },
}

/** A file's stamp, or null (never fresh) when it changed after `since`: the build may hold its older content. */
function stampedBefore(file: string, since: number): [number, number] | null {
  const now = stamp(file)
  return now && now[0] < since ? now : null
}

export async function buildServer(): Promise<void> {
  const started = performance.now()
  // A source saved after this moment is stamped unknown (null), so the next start rebuilds.
  const startedAt = Date.now()
  // Each build writes its own temporary files, so two starts building at once both finish (the last rename wins).
  const temporary = `main.js.${process.pid}.tmp`
  // Stamped before reading: a file edited while the build runs leaves the stamp behind, and the next start rebuilds.
  const extra = Object.fromEntries(EXTRA_INPUTS.map((file) => [file, stamp(file)]))
  const params = { ...ARGON2_PARAMS, algorithm: 2 } // Algorithm.Argon2id
  const seedHashes: Record<string, string> = {}
  for (const account of SEED_ACCOUNTS) seedHashes[account.password] = await hash(account.password, params)
  const buildTime: BuildTime = {
    documents: {
      api: parse(readFileSync(join(root, DOCUMENTS.api), 'utf8')) as Record<string, unknown>,
      control: parse(readFileSync(join(root, DOCUMENTS.control), 'utf8')) as Record<string, unknown>,
    },
    webDist: relative(outDir, join(root, 'web/dist')).split('\\').join('/') + '/',
    seedHashes,
    // A hash of a random password nobody keeps: what a sign-in at an unknown address is checked against.
    dummyHash: await hash(`dummy-${randomBytes(32).toString('base64url')}`, params),
  }
  mkdirSync(outDir, { recursive: true })
  const result = await build({
    entryPoints: [join(root, 'mock-server/src/main.ts')],
    outfile: join(outDir, temporary),
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // A native binding: loaded from node_modules at run time.
    // PGlite reads its WebAssembly and data files beside its own module, so it stays in node_modules.
    external: ['@node-rs/argon2', '@electric-sql/pglite'],
    // CommonJS packages bundled into an ES module still call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
    },
    define: { __MOCK_SERVER_BUILD__: JSON.stringify(buildTime) },
    minifySyntax: true,
    minifyWhitespace: true,
    legalComments: 'none',
    metafile: true,
    plugins: [commonPasswordsOnly],
    logLevel: 'warning',
  })
  const inputs: Record<string, [number, number] | null> = { ...extra }
  for (const file of Object.keys(result.metafile.inputs))
    if (!file.startsWith('<') && !file.includes(':')) inputs[file] ??= stampedBefore(file, startedAt)
  if (values.meta) writeFileSync(join(outDir, 'meta.json'), JSON.stringify(result.metafile))
  renameSync(join(outDir, temporary), join(outDir, 'main.js'))
  // Written last: a build that failed half-way leaves no stamp that would call it fresh.
  writeFileSync(
    join(outDir, `inputs.json.${process.pid}.tmp`),
    JSON.stringify({ root: relative(outDir, root) || '.', inputs }),
  )
  renameSync(join(outDir, `inputs.json.${process.pid}.tmp`), join(outDir, 'inputs.json'))
  process.stderr.write(
    `Built the mock server into ${relative(process.cwd(), outDir) || '.'}/main.js (${Object.keys(inputs).length} inputs, ${Math.round(performance.now() - started)} ms)\n`,
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildServer()
