// The command a newcomer runs: `npm run mock` prints its help, starts on the given port and serves the API.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const main = fileURLToPath(new URL('./main.ts', import.meta.url))

function run(
  args: string[],
  until: RegExp,
): Promise<{ output: string; stop: () => void; code: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', main, ...args], {
    env: { ...process.env, PORT: '' },
  })
  let output = ''
  const code = new Promise<number | null>((resolve) => child.on('exit', resolve))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Failed to see ${until} in: ${output}`)), 20_000)
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      if (until.test(output)) {
        clearTimeout(timer)
        resolve({ output, stop: () => child.kill('SIGTERM'), code })
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', onData)
  })
}

test('--help lists the flags', async () => {
  const { output, code } = await run(['--help'], /--production/)
  expect(output).toContain('--data <file>')
  expect(await code).toBe(0)
}, 30_000)

test('starts on a free port, serves the session call, and logs the request', async () => {
  const server = await run(['--port', '0'], /listening on (http:\/\/\S+)/)
  const origin = /listening on (http:\/\/\S+)/.exec(server.output)![1]!
  const res = await fetch(`${origin}/api/_auth/session`)
  expect(await res.json()).toEqual({})
  server.stop()
  expect(await server.code).toBe(0)
}, 30_000)

test('an unknown flag stops with an error', async () => {
  const { output, code } = await run(['--colour'], /Unknown option/)
  expect(output).toContain("'--colour'")
  expect(await code).toBe(2)
}, 30_000)
