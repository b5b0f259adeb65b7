// scripts/run-parallel.ts runs npm test's scripts side by side; --favour keeps one at the normal priority.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, onTestFinished, test } from 'vitest'

/** Each test starts tsx and several `npm run`s: seconds of CPU, many more when the machine is busy. */
const SPAWNS_TIMEOUT_MS = 120_000
const RUNNER = fileURLToPath(new URL('./run-parallel.ts', import.meta.url))
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url))

/** The runner in a folder whose package.json has `scripts`; `nice` alone prints the niceness it runs at. */
function runParallel(scripts: Record<string, string>, args: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'run-parallel-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'probe', private: true, scripts }))
  const run = spawnSync(process.execPath, [TSX, RUNNER, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, RUN_PARALLEL_JOBS: '2', FORCE_COLOR: '0', npm_config_loglevel: 'silent' },
  })
  return { code: run.status, output: `${run.stdout}${run.stderr}` }
}

/** The niceness a script's block printed, from the block that names it. */
const nicenessOf = (output: string, name: string) =>
  Number(new RegExp(`── npm run ${name}: ok[^\\n]*\\n(?:[^\\n]*\\n)*?(\\d+)\\n`).exec(output)?.[1])

test(
  '--favour keeps the named script at the normal priority and runs the others under nice 10',
  () => {
    const { code, output } = runParallel({ slow: 'nice', quick: 'nice', other: 'nice' }, [
      '--favour',
      'slow',
      'slow',
      'quick',
      'other',
    ])
    expect(code, output).toBe(0)
    expect(output).toContain('At the normal priority: slow; the other scripts under nice -n 10.')
    const base = nicenessOf(output, 'slow')
    expect(Number.isInteger(base), output).toBe(true)
    expect(nicenessOf(output, 'quick')).toBe(Math.min(base + 10, 19))
    expect(nicenessOf(output, 'other')).toBe(Math.min(base + 10, 19))
  },
  SPAWNS_TIMEOUT_MS,
)

test(
  'without --favour every script runs at the priority of the runner',
  () => {
    const { code, output } = runParallel({ one: 'nice', two: 'nice' }, ['one', 'two'])
    expect(code, output).toBe(0)
    expect(nicenessOf(output, 'one')).toBe(nicenessOf(output, 'two'))
    expect(output).not.toContain('At the normal priority')
  },
  SPAWNS_TIMEOUT_MS,
)

test(
  'a favoured name that is not among the scripts is refused (exit 2); a failed script fails the run',
  () => {
    const refused = runParallel({ one: 'nice' }, ['--favour', 'ones', 'one'])
    expect(refused.code).toBe(2)
    expect(refused.output).toContain(
      'Failed to read the arguments: --favour "ones" names no script of the run.',
    )

    const failed = runParallel({ good: 'true', bad: 'exit 3' }, ['good', 'bad'])
    expect(failed.code, failed.output).toBe(1)
    expect(failed.output).toContain('Failed: npm run bad')
    expect(failed.output).toMatch(/^ok {5}good: /m)
  },
  SPAWNS_TIMEOUT_MS,
)
