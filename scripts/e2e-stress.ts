/**
 * `npm run test:e2e:stress`: the e2e suite three times without retries, beside a CPU hog, as on a busy CI machine.
 * Fails on any failed or flaky test. Not part of `npm test`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { summarize, type PlaywrightReport } from './lib/stress-summary.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const runs = Number(process.env.STRESS_RUNS ?? 3)
const outDir = `${root}test-results/stress`

function startHogs(): ChildProcess[] {
  return Array.from({ length: availableParallelism() }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  )
}

function runSuite(index: number): PlaywrightReport {
  const file = `${outDir}/run-${index}.json`
  const started = Date.now()
  spawnSync(
    'npx',
    ['playwright', 'test', '-c', 'e2e/playwright.config.ts', '--retries=0', '--reporter=dot,json'],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_FILE: file },
    },
  )
  console.log(`\nrun ${index}: ${((Date.now() - started) / 1000).toFixed(0)} s`)
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PlaywrightReport
  } catch {
    return { errors: [{ message: `run ${index} wrote no report` }] }
  }
}

function main(): number {
  const check = spawnSync(process.execPath, ['--import', 'tsx', `${root}scripts/ensure-chromium.ts`], {
    stdio: 'inherit',
  })
  if (check.status !== 0) return check.status ?? 1
  rmSync(outDir, { recursive: true, force: true })
  mkdirSync(outDir, { recursive: true })
  const hogs = startHogs()
  const stop = () => hogs.forEach((hog) => hog.kill('SIGKILL'))
  process.on('exit', stop)
  console.log(`e2e stress: ${runs} runs, retries off, ${hogs.length} CPU hog(s) spinning beside them`)
  const reports: PlaywrightReport[] = []
  try {
    for (let index = 1; index <= runs; index++) reports.push(runSuite(index))
  } finally {
    stop()
  }
  const summary = summarize(reports)
  console.log('\nrun  passed  failed  flaky  skipped  errors')
  summary.runs.forEach((run, index) =>
    console.log(
      `${String(index + 1).padEnd(5)}${String(run.passed).padEnd(8)}${String(run.failed).padEnd(8)}` +
        `${String(run.flaky).padEnd(7)}${String(run.skipped).padEnd(9)}${run.errors}`,
    ),
  )
  console.log(`\nfailed in every run: ${summary.failed.length}`)
  summary.failed.forEach((name) => console.log(`  ${name}`))
  console.log(`flaky (failed in some runs only): ${summary.flaky.length}`)
  summary.flaky.forEach((name) => console.log(`  ${name}`))
  const errors = summary.runs.reduce((sum, run) => sum + run.errors, 0)
  return summary.failed.length + summary.flaky.length + errors === 0 ? 0 : 1
}

process.exitCode = main()
