/**
 * Child processes for the suite's own tests of target runs (target-run.test.ts, target-faults.test.ts): a mock server
 * started on port 0, and the contract suite run against a CONTRACT_TARGET, each with its output kept.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { onTestFinished } from 'vitest'
import { START_SCRIPT } from '../../mock-server/testing/run-main.ts'
import { readCtrf as readCtrfFile, type CtrfReport } from '#harness/reports/ctrf.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))

/**
 * A test that runs the suite in a child against a child server: tens of seconds alone, minutes on a machine that
 * runs the other legs of `npm test` beside it.
 */
export const CHILD_RUN_TIMEOUT_MS = 300_000

export interface Child {
  output: () => string
  exit: Promise<number | null>
  stop: () => void
}

/** Node running `command` in the repository, with `env` over this process's minus the target's variables. */
export function start(command: string[], env: NodeJS.ProcessEnv): Child {
  const {
    MOCK_CONTROL_TOKEN: _token,
    CONTRACT_TARGET: _target,
    CONTRACT_CONTROL_TOKEN: _control,
    CONTRACT_SMTP_PORT: _smtp,
    CONTRACT_CODE_ADAPTER: _adapter,
    CONTRACT_TARGET_CORS_ORIGINS: _origins,
    CONTRACT_TARGET_TRUST_PROXY: _hops,
    ...inherited
  } = process.env
  const child = spawn(process.execPath, command, { cwd: root, env: { ...inherited, ...env } })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return {
    output: () => output,
    exit: new Promise((resolve) => child.on('exit', resolve)),
    stop: () => child.kill('SIGTERM'),
  }
}

/** `npm run mock` on port 0 with `args`, once it says where it listens. */
export async function startMockServer(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Child & { origin: string }> {
  const server = start([START_SCRIPT, '--port', '0', '--web', 'none', '--quiet', ...args], {
    PORT: '0',
    ...env,
  })
  const origin = await new Promise<string>((resolve, reject) => {
    const poll = setInterval(() => {
      const found = /listening on (http:\/\/\S+)/.exec(server.output())
      if (found) {
        clearInterval(poll)
        resolve(found[1]!)
      }
    }, 50)
    void server.exit.then((code) => {
      clearInterval(poll)
      reject(new Error(`The mock server exited (${code}): ${server.output()}`))
    })
  })
  return { ...server, origin }
}

/**
 * Runs the contract suite's `files` with `env` (CONTRACT_TARGET and the rest), reports going to a folder of their
 * own, removed when the test ends.
 */
export async function runContracts(
  env: NodeJS.ProcessEnv,
  files: readonly string[],
): Promise<{ code: number | null; output: string; reports: string }> {
  const reports = mkdtempSync(join(tmpdir(), 'contract-target-reports-'))
  onTestFinished(() => rmSync(reports, { recursive: true, force: true }))
  const run = start(
    [
      'node_modules/vitest/vitest.mjs',
      'run',
      '--project',
      'contracts',
      ...files,
      // One worker: each imports the suite's whole module graph, and the few files here gain nothing from four
      // (target-declared.test.ts: 39 s of CPU in 25 s with four, 23 s in 20 s with one).
      '--maxWorkers=1',
      '--reporter=default',
      '--reporter=junit',
      `--outputFile.junit=${join(reports, 'junit.xml')}`,
      '--reporter=./harness/reports/vitest-ctrf.ts',
      `--outputFile.ctrf=${join(reports, 'ctrf.json')}`,
    ],
    { ...env, CONTRACT_REPORT_DIR: reports, NO_COLOR: '1', FORCE_COLOR: '0' },
  )
  const code = await run.exit
  return { code, output: run.output(), reports }
}

/** The CTRF report of a child run (harness/reports/vitest-ctrf.ts), in its `reports` folder. */
export const readCtrf = (reports: string): CtrfReport => readCtrfFile(join(reports, 'ctrf.json'))

/** The names of a child run's checks that ended with `status` (passed, failed, skipped). */
export const checksWith = (reports: string, status: string): string[] =>
  readCtrf(reports)
    .results.tests.filter((one) => one.status === status)
    .map((one) => one.name)

/** How many checks the coverage report says ran against the target. */
export const checksRan = (output: string) => Number(/: (\d+) checks ran;/.exec(output)?.[1] ?? NaN)
