// The command a newcomer runs, as the tests start it: main.ts in a child process (through tsx), without the caller's
// control token or PORT, read until its output matches. Shared by main.test.ts and main-deploy.test.ts.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const main = fileURLToPath(new URL('../main.ts', import.meta.url))

export interface RunningMain {
  /** The output up to the match. */
  output: string
  /** The output so far. */
  read: () => string
  stop: () => void
  code: Promise<number | null>
}

/**
 * Starts main.ts with `args` (and `env` over the caller's, less MOCK_CONTROL_TOKEN and PORT) and resolves once its
 * stdout and stderr together match `until`; rejects after 20 s.
 * @example const server = await runMain(['--port', '0'], /listening on (http:\/\/\S+)/)
 */
export function runMain(
  args: string[],
  until: RegExp,
  env: Record<string, string> = {},
): Promise<RunningMain> {
  const { MOCK_CONTROL_TOKEN: _token, ...inherited } = process.env
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
    env: { ...inherited, PORT: '', ...env },
  })
  let output = ''
  const code = new Promise<number | null>((resolve) => child.on('exit', resolve))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Failed to see ${until} in: ${output}`)), 20_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (!until.test(output)) return
      clearTimeout(timer)
      resolve({ output, read: () => output, stop: () => child.kill('SIGTERM'), code })
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
  })
}
