// scripts/run-parallel.ts runs npm test's scripts side by side; --favour keeps one at the normal priority.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, onTestFinished, test } from 'vitest'

/** Each test starts tsx and several `npm run`s: seconds of CPU, many more when the machine is busy. */
const SPAWNS_TIMEOUT_MS = 120_000
const RUNNER = fileURLToPath(new URL('./run-parallel.ts', import.meta.url))
const TSX = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url))

/** The runner in a folder whose package.json has `scripts`; `nice` alone prints the niceness it runs at. */
function runParallel(scripts: Record<string, string>, args: string[], jobs = '2') {
  const dir = mkdtempSync(join(tmpdir(), 'run-parallel-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'probe', private: true, scripts }))
  const run = spawnSync(process.execPath, [TSX, RUNNER, ...args], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, RUN_PARALLEL_JOBS: jobs, FORCE_COLOR: '0', npm_config_loglevel: 'silent' },
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

/** The nice of the scheduler group a script's block printed (`/proc/self/autogroup`), or null where Linux has none. */
const groupNiceOf = (output: string, name: string) => {
  const block = new RegExp(`── npm run ${name}: ok[^\\n]*\\n((?:(?!── )[^\\n]*\\n)*)`).exec(output)?.[1] ?? ''
  if (block.includes('no autogroup')) return null
  return Number(/\/autogroup-\d+ nice (-?\d+)/.exec(block)?.[1])
}

test(
  '--favour also lowers the scheduler group of each other script, where Linux groups them by session',
  () => {
    const probe = 'cat /proc/self/autogroup 2>/dev/null || echo no autogroup'
    // Three niced scripts start at once, as npm test's do: without CAP_SYS_ADMIN Linux takes one change of a group's
    // nice a tenth of a second, and refuses the others until they try again.
    const { code, output } = runParallel(
      { slow: probe, quick: probe, other: probe, third: probe },
      ['--favour', 'slow', 'slow', 'quick', 'other', 'third'],
      '4',
    )
    expect(code, output).toBe(0)
    const hasGroups = existsSync('/proc/self/autogroup')
    expect(groupNiceOf(output, 'slow'), output).toBe(hasGroups ? 0 : null)
    // Without this, nice -n 10 weighed only inside the script's own session: the favoured one got no more.
    for (const name of ['quick', 'other', 'third'])
      expect(groupNiceOf(output, name), output).toBe(hasGroups ? 10 : null)
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

test(
  'a script named twice, or a RUN_PARALLEL_JOBS that is no whole number from 1, is refused (exit 2) before anything runs',
  () => {
    const twice = runParallel({ one: 'echo ran' }, ['one', 'one'])
    expect(twice.code).toBe(2)
    expect(twice.output).toContain('Failed to read the arguments: "one" is named twice.')
    expect(twice.output).not.toContain('ran')
    for (const jobs of ['abc', '0', '1.5']) {
      const wrong = runParallel({ one: 'echo ran' }, ['one'], jobs)
      expect(wrong.code, jobs).toBe(2)
      expect(wrong.output).toContain(
        `Failed to read RUN_PARALLEL_JOBS: "${jobs}" is not a whole number from 1.`,
      )
    }
  },
  SPAWNS_TIMEOUT_MS,
)

test(
  'stopped while a script hangs, the runner prints what that script printed so far and stops it',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-parallel-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const scripts = { done: 'echo finished', hang: 'echo stuck in test T42; sleep 317' }
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'probe', private: true, scripts }))
    const runner = spawn(process.execPath, [TSX, RUNNER, 'done', 'hang'], {
      cwd: dir,
      env: { ...process.env, RUN_PARALLEL_JOBS: '2', FORCE_COLOR: '0', npm_config_loglevel: 'silent' },
    })
    let output = ''
    runner.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<number | null>((resolve) => runner.on('exit', resolve))
    // Stopped once the finished script's block is out and the hanging one has started (its marker file).
    await expect.poll(() => output.includes('npm run done: ok'), { timeout: SPAWNS_TIMEOUT_MS }).toBe(true)
    await expect
      .poll(() => spawnSync('pgrep', ['-f', 'sleep 317']).status === 0, { timeout: SPAWNS_TIMEOUT_MS })
      .toBe(true)
    runner.kill('SIGTERM')
    expect(await exited).toBe(143)
    expect(output).toContain('── npm run hang: stopped by SIGTERM while running; its output so far:')
    expect(output).toContain('stuck in test T42')
    // The hanging script's whole tree is stopped, not only its shell.
    await expect
      .poll(() => spawnSync('pgrep', ['-f', 'sleep 317']).status, { timeout: SPAWNS_TIMEOUT_MS })
      .toBe(1)
  },
  SPAWNS_TIMEOUT_MS,
)
