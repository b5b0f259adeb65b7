// The command a newcomer runs, as the tests start it: `npm run mock`'s own start script (mock-server/start.mjs, the
// compiled server; build-once.ts has built it before any test runs) in a child process, without the caller's control
// token or PORT, read until its output matches. Shared by the main*.test.ts files and the others that start it as a user does. The compiled server
// starts in about 0.17 s of CPU where main.ts through tsx takes about 1.4 s (docs/decisions/015-suite-speed.md).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { onTestFinished } from 'vitest'

export const START_SCRIPT = fileURLToPath(new URL('../start.mjs', import.meta.url))

/**
 * runMain's wait for a server on --data: the embedded store runs initdb first, 6.6 s alone on a slow machine and past
 * 90 s there beside the other legs of `npm test` (docs/decisions/025-ci-minutes.md). A wait only ends a hung start.
 */
export const EMBEDDED_START = { timeoutMs: 240_000 }
/** The time-out of a test that starts `starts` servers on a new --data folder, and a minute for the rest. */
export const embeddedStartsTimeout = (starts: number) => starts * EMBEDDED_START.timeoutMs + 60_000

export interface RunningMain {
  /** The output up to the match. */
  output: string
  /** The output so far. */
  read: () => string
  stop: () => void
  code: Promise<number | null>
  /** Resolves with the output once it matches `until` (at once when it already does); rejects after 20 s. */
  waitFor: (until: RegExp) => Promise<string>
}

/**
 * Starts the mock server with `args` (and `env` over the caller's, less MOCK_CONTROL_TOKEN and PORT) and resolves once its
 * stdout and stderr together match `until`; rejects after 20 s (`timeoutMs`).
 * @example const server = await runMain(['--port', '0'], /listening on (http:\/\/\S+)/)
 */
export function runMain(
  args: string[],
  until: RegExp,
  env: Record<string, string> = {},
  /** How long to wait for each match: an embedded database (--data) takes seconds to start, more on a busy machine. */
  { timeoutMs = 20_000 }: { timeoutMs?: number } = {},
): Promise<RunningMain> {
  const { MOCK_CONTROL_TOKEN: _token, ...inherited } = process.env
  // A server ends with the test running when it started: a test that timed out goes on running with its scratch
  // folder gone, and a start it makes after that opened a new store there and served until the run ended. Such a
  // late start now ends with the test that is running by then.
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  const child = spawn(process.execPath, [START_SCRIPT, ...args], {
    env: { ...inherited, PORT: '0', ...env },
  })
  let output = ''
  const code = new Promise<number | null>((resolve) => child.on('exit', resolve))
  const waitFor = (pattern: RegExp) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        if (!pattern.test(output)) return
        clearTimeout(timer)
        child.stdout.off('data', check)
        child.stderr.off('data', check)
        resolve(output)
      }
      const timer = setTimeout(() => reject(new Error(`Failed to see ${pattern} in: ${output}`)), timeoutMs)
      child.stdout.on('data', check)
      child.stderr.on('data', check)
      check()
    })
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return waitFor(until).then((seen) => ({
    output: seen,
    read: () => output,
    stop: () => child.kill('SIGTERM'),
    code,
    waitFor,
  }))
}
