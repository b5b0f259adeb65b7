// `npm run mock`, `npm start`: the compiled mock server (scripts/build-server.ts), built first when it is missing or
// stale. Stale means a file the build read (every source file, both OpenAPI documents, the lock file, the build
// script) differs in size or modification time from what the build stamped, or is gone: such a build is never run.
// MOCK_SERVER_BUILD_DIR puts the build elsewhere (default dist/mock-server).
import { execFileSync } from 'node:child_process'
import { readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = resolve(here, '..')
const outDir = resolve(process.env.MOCK_SERVER_BUILD_DIR || join(root, 'dist/mock-server'))

/** Why the build in outDir cannot be run, or null when it is current. */
function staleness() {
  let stamp
  try {
    stamp = JSON.parse(readFileSync(join(outDir, 'inputs.json'), 'utf8'))
    statSync(join(outDir, 'main.js'))
  } catch {
    return 'no build yet'
  }
  if (resolve(outDir, stamp.root) !== root) return 'built from another folder'
  for (const [file, recorded] of Object.entries(stamp.inputs)) {
    const stats = statSync(join(root, file), { throwIfNoEntry: false })
    const now = stats ? [stats.mtimeMs, stats.size] : null
    if (JSON.stringify(now) !== JSON.stringify(recorded)) return `${file} changed`
  }
  return null
}

const reason = staleness()
if (reason !== null) {
  process.stderr.write(`Building the mock server (${reason})...\n`)
  try {
    execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/build-server.ts'), '--out', outDir], {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
    })
  } catch {
    process.stderr.write('Failed to build the mock server (npm run build:server shows why).\n')
    process.exit(1)
  }
}
await import(pathToFileURL(join(outDir, 'main.js')).href)
