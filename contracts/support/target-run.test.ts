// `CONTRACT_TARGET=<url> npm run test:contracts` end to end (docs/decisions/016-contract-target.md): the contract
// suite, run as a child process against a mock server started here, once with a control token and once in
// `--production`. Two files keep it short; the whole suite runs the same way. An unreachable target and a token
// the target refuses are target.test.ts's (the probe).
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from 'vitest'

const root = fileURLToPath(new URL('../..', import.meta.url))
const FILES = ['contracts/auth-codes.contract.test.ts', 'contracts/auth-signup.contract.test.ts']

interface Child {
  output: () => string
  exit: Promise<number | null>
  stop: () => void
}

function start(command: string[], env: NodeJS.ProcessEnv): Child {
  const {
    MOCK_CONTROL_TOKEN: _token,
    CONTRACT_TARGET: _target,
    CONTRACT_CONTROL_TOKEN: _control,
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

async function startMockServer(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Child & { origin: string }> {
  const server = start(
    ['--import', 'tsx', 'mock-server/src/main.ts', '--port', '0', '--web', 'none', '--quiet', ...args],
    { PORT: '', ...env },
  )
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

/** The contract suite's files against `target`: its exit code and its output without colours. */
async function runContracts(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  const run = start(['node_modules/vitest/vitest.mjs', 'run', '--project', 'contracts', ...FILES], {
    ...env,
    NO_COLOR: '1',
    FORCE_COLOR: '0',
  })
  const code = await run.exit
  return { code, output: run.output() }
}

const checksRan = (output: string) => Number(/: (\d+) checks ran;/.exec(output)?.[1] ?? NaN)

test('against a mock server with its control token: the checks run, reset between tests; what needs another server is counted', async () => {
  const server = await startMockServer([], { MOCK_CONTROL_TOKEN: 'target-run-token' })
  try {
    const withToken = await runContracts({
      CONTRACT_TARGET: server.origin,
      CONTRACT_CONTROL_TOKEN: 'target-run-token',
    })
    expect(withToken.code, withToken.output).toBe(0)
    // 21 checks, of which two need a server built otherwise (a code guess limit, a cap on unverified accounts).
    expect(checksRan(withToken.output)).toBe(19)
    expect(withToken.output).toMatch(/needs a server built with/)
    expect(withToken.output).not.toMatch(/needs the \/__mock control surface/)
  } finally {
    server.stop()
  }
}, 120_000)

test('against the mock server in --production: the checks that need no control run, the rest are not checkable', async () => {
  const server = await startMockServer(['--production'])
  try {
    const { code, output } = await runContracts({ CONTRACT_TARGET: server.origin })
    expect(code, output).toBe(0)
    expect(checksRan(output)).toBeGreaterThanOrEqual(3)
    expect(output).toMatch(
      /needs the \/__mock control surface, which the target does not offer \(GET \/__mock\/clock: 404\)/,
    )
  } finally {
    server.stop()
  }
}, 120_000)
