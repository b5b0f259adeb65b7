// The QA command line against a real mock server: every command in process, and the real process once.
import { spawn } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createApp } from '#mock-server/app.ts'
import { UNREACHABLE_ORIGIN } from '../mock-server/testing/unreachable.ts'
import { runScenarioCommand, type CliIo } from './scenario-cli.ts'

let server: Server
let baseUrl: string
const closedUrl = UNREACHABLE_ORIGIN
beforeAll(async () => {
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 } })
  await app.core.ready
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

async function run(argv: string[], io: Partial<CliIo> = {}) {
  const lines: string[] = []
  const errors: string[] = []
  const code = await runScenarioCommand(argv, {
    fetch,
    baseUrl,
    print: (line) => lines.push(line),
    printError: (line) => errors.push(line),
    ...io,
  })
  return { code, output: lines.join('\n'), errors: errors.join('\n') }
}

const json = async (...argv: string[]) => JSON.parse((await run(['--json', ...argv])).output)

function post(path: string, body: object) {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
}

test('--json: arms a scenario for one account, lists it, and clears it, printing the answers as before', async () => {
  expect(await json('access-token-expired', '--email', 'ada@example.com', '--times', '2')).toMatchObject({
    name: 'access-token-expired',
    email: 'ada@example.com',
    remaining: 2,
  })
  expect((await json('list')).armed).toHaveLength(1)
  expect(await json('clear', '--email', 'ada@example.com')).toEqual({ cleared: 1 })
})

test('for people: what was armed, for whom and for how many calls; the list; the clearing', async () => {
  const armed = await run([
    'access-token-expired',
    '--email',
    'ada@example.com',
    '--operation',
    'getMe',
    '--times',
    '2',
  ])
  expect(armed).toEqual({
    code: 0,
    output:
      'Armed access-token-expired for ada@example.com on getMe calls: it serves the next 2 matching calls.',
    errors: '',
  })
  const list = (await run(['list'])).output.split('\n')
  expect(list[0]).toBe('Armed now (1), earliest first:')
  expect(list[2]).toMatch(/^ {2}access-token-expired +ada@example\.com +getMe +2 more$/)
  expect(list).toContain('Scenarios to arm (13):')
  expect((await run(['clear', '--email', 'ada@example.com'])).output).toBe(
    'Disarmed 1 scenario for ada@example.com.',
  )
  expect((await run(['list'])).output.split('\n')[0]).toBe('Nothing is armed.')
})

test('moves the clock by a duration, and says so', async () => {
  const before = (await json('clock')).offset_ms as number
  const after = (await json('clock', '+15m')).offset_ms as number
  expect(after - before).toBe(900_000)
  expect((await run(['clock', '+1h'])).output).toMatch(
    /^Moved the server clock: it is now \d{4}-\d\d-\d\dT[\d:.]+Z \(1h 15m ahead of real time\)\.$/,
  )
})

test('reads a mailbox and the journal, for people and as JSON, and resets', async () => {
  await post('/api/auth/forgot', { email: 'grace@example.com' })
  const [mail] = (await json('mailbox', 'grace@example.com')).messages
  expect(mail.purpose).toBe('reset')
  expect((await run(['mailbox', 'grace@example.com'])).output.split('\n')).toEqual([
    '1 mail to grace@example.com, oldest first:',
    '  ADDRESS            PURPOSE  CODE    AGE',
    expect.stringMatching(
      new RegExp(`^ {2}grace@example\\.com {2}reset {4}${mail.code} {2}(just now|\\d+s ago)$`),
    ),
  ])
  expect((await json('requests', '--email', 'grace@example.com')).requests[0].path).toBe('/api/auth/forgot')
  const journal = (await run(['requests', '--email', 'grace@example.com'])).output.split('\n')
  expect(journal[0]).toBe('1 call of grace@example.com, oldest first (times by the server clock, UTC):')
  expect(journal[1]).toMatch(
    /^ +\d+ {2}\d\d:\d\d:\d\d {2}POST {4}202 {2}\/api\/auth\/forgot {2}forgotPassword · grace@example\.com$/,
  )
  expect((await run(['reset'])).output).toBe(
    'Reset: accounts, clock, scenarios, mailbox and journal are back to the seed state.',
  )
  expect((await json('mailbox', 'grace@example.com')).messages).toEqual([])
  expect((await run(['mailbox', 'grace@example.com'])).output).toBe('No mail to grace@example.com yet.')
})

test('no password or token of a sign-in reaches the journal as printed, for people or as JSON', async () => {
  const password = 'analytical-engine-1843'
  const signIn = (await (
    await post('/api/auth/login', { email: 'ada@example.com', password })
  ).json()) as Record<string, string>
  const printed = (await run(['requests', '--email', 'ada@example.com'])).output
  const raw = (await run(['--json', 'requests', '--email', 'ada@example.com'])).output
  expect(printed).toContain('/api/auth/login')
  for (const secret of [password, signIn.token!, signIn.refresh_token!, signIn.service_token!]) {
    expect(printed).not.toContain(secret)
    expect(raw).not.toContain(secret)
  }
})

test('a refused scenario exits 1 with the reason on one line; bad usage exits 2 with one line (--json: the help)', async () => {
  const refused = await run(['meteor-strike'])
  expect(refused).toMatchObject({ code: 1, output: '' })
  expect(refused.errors).toBe(
    'The mock server refused meteor-strike (400 validation_failed): name: Unknown value "meteor-strike". npm run scenario -- list names the scenarios; --help lists the commands and options.',
  )
  expect((await run(['--json', 'meteor-strike'])).output).toContain('"error": "validation_failed"')
  for (const argv of [
    ['clock', '+soon'],
    ['--tiems', '2'],
    ['latency', 'ada@example.com'],
    ['server-error', '--status', 'x'],
    ['watch', '--email', ''],
    ['requests', '--email', ' '],
  ]) {
    const usage = await run(argv)
    expect(usage.code).toBe(2)
    expect(usage.errors.split('\n')).toHaveLength(1)
    expect(usage.errors).toMatch(/Run npm run scenario -- --help for the commands\.$/)
  }
  expect((await run(['watch', '--email', ''])).errors).toContain('--email is empty; give an address')
  expect((await run(['latency', 'ada@example.com'])).errors).toContain(
    '(did you mean --email ada@example.com?)',
  )
  const jsonUsage = await run(['--json', 'clock', '+soon'])
  expect(jsonUsage.code).toBe(2)
  expect(jsonUsage.output).toContain('Usage: npm run scenario')
  expect((await run(['--help'])).code).toBe(0)
})

test('says so when no server answers', async () => {
  const { code, errors } = await run(['list'], { baseUrl: closedUrl })
  expect(code).toBe(1)
  expect(errors).toBe(
    `Failed to reach the mock server at ${closedUrl}: fetch failed (ECONNREFUSED). Is it running (npm run mock)?`,
  )
  const withSecret = await run(['list'], { baseUrl: closedUrl.replace('//', '//qa:secret@') })
  expect(withSecret.code).toBe(2)
  expect(withSecret.errors).toMatch(/^The server address \(--url or MOCK_URL\) carries a user or password/)
  expect(withSecret.errors).not.toContain('secret@')
  expect((await run(['list', '--url', 'nowhere'])).code).toBe(2)
})

test('passes the control token of a server that has one (MOCK_CONTROL_TOKEN), never prints it, and resets with a JSON body', async () => {
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 }, controlToken: 'qa-secret-token' })
  await app.core.ready
  const guarded = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => guarded.once('listening', resolve))
  const url = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}`
  try {
    const refused = await run(['list'], { baseUrl: url })
    expect(refused.code).toBe(1)
    expect(refused.errors).toContain('(401 control_token_required)')
    expect(refused.errors).toContain('Set MOCK_CONTROL_TOKEN to the token the server was started with.')
    const allowed = await run(['list'], { baseUrl: url, controlToken: 'qa-secret-token' })
    expect(allowed.code).toBe(0)
    expect((await run(['reset'], { baseUrl: url, controlToken: 'qa-secret-token' })).code).toBe(0)
    expect([refused, allowed].map((one) => one.output + one.errors).join('')).not.toContain('qa-secret-token')
  } finally {
    await new Promise((resolve) => guarded.close(resolve))
  }
})

test('watch prints each new call of the account as it happens, and ends when stopped', async () => {
  const stop = new AbortController()
  const lines: string[] = []
  let wake = () => {}
  const next = (pattern: RegExp) =>
    new Promise<void>((resolve) => {
      wake = () => lines.some((line) => pattern.test(line)) && resolve()
      wake()
    })
  const say = (line: string) => (lines.push(line), wake())
  const code = runScenarioCommand(['watch', '--email', 'grace@example.com', '--interval', '20ms'], {
    fetch,
    baseUrl,
    print: say,
    printError: say,
    signal: stop.signal,
  })
  await next(/^Watching the journal of http:\/\/127\.0\.0\.1:\d+ for grace@example\.com/)
  await post('/api/auth/forgot', { email: 'ada@example.com' })
  await post('/api/auth/forgot', { email: 'grace@example.com' })
  await next(/POST {4}202 {2}\/api\/auth\/forgot {2}forgotPassword · grace@example\.com$/)
  stop.abort()
  expect(await code).toBe(0)
  expect(lines.filter((line) => line.includes('/api/'))).toHaveLength(1) // ada's call is not grace's
})

const CLI = fileURLToPath(new URL('./scenario.ts', import.meta.url))

/** The command line as QA runs it (its stdout a pipe, not a terminal), with its output and exit code. */
function spawnCli(argv: string[], env: Record<string, string> = {}) {
  const { MOCK_CONTROL_TOKEN: _t, NO_COLOR: _n, FORCE_COLOR: _f, ...inherited } = process.env
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...argv], {
    env: { ...inherited, MOCK_URL: baseUrl, ...env },
  })
  const out = { stdout: '', stderr: '' }
  const waiters = new Set<() => void>()
  child.stdout.on(
    'data',
    (chunk: Buffer) => ((out.stdout += chunk.toString()), waiters.forEach((wake) => wake())),
  )
  child.stderr.on(
    'data',
    (chunk: Buffer) => ((out.stderr += chunk.toString()), waiters.forEach((wake) => wake())),
  )
  const code = new Promise<number | null>((resolve) => child.on('exit', resolve))
  /** Resolves once the stream shows the pattern (rejects if the process ends first). */
  const until = (stream: 'stdout' | 'stderr', pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      const check = () => pattern.test(out[stream]) && (waiters.delete(check), resolve())
      waiters.add(check)
      check()
      void code.then(() => reject(new Error(`Failed to see ${pattern} in ${stream}: ${JSON.stringify(out)}`)))
    })
  return { out, code, until, interrupt: () => child.kill('SIGINT') }
}

test('the real command: plain text off a terminal, colours with FORCE_COLOR, one line on stderr for an error', async () => {
  const plain = spawnCli(['clock'])
  expect(await plain.code).toBe(0)
  expect(plain.out.stdout).toMatch(/^Server clock: \S+ \(on real time\)\.\n$/)
  const coloured = spawnCli(['clock'], { FORCE_COLOR: '1' })
  expect(await coloured.code).toBe(0)
  expect(coloured.out.stdout).toContain('\u001b[1m')
  const unreachable = spawnCli(['list'], { MOCK_URL: closedUrl })
  expect(await unreachable.code).toBe(1)
  expect(unreachable.out).toEqual({
    stdout: '',
    stderr: `Failed to reach the mock server at ${closedUrl}: fetch failed (ECONNREFUSED). Is it running (npm run mock)?\n`,
  })
}, 60_000)

test('the real command: watch follows the journal live and Ctrl-C ends it with exit code 0', async () => {
  const watch = spawnCli(['watch', '--email', 'grace@example.com'])
  await watch.until('stderr', /Watching the journal of /)
  await post('/api/auth/forgot', { email: 'grace@example.com' })
  await watch.until('stdout', /\/api\/auth\/forgot {2}forgotPassword · grace@example\.com\n/)
  watch.interrupt()
  expect(await watch.code).toBe(0)
  expect(watch.out.stdout).not.toContain('\u001b[') // off a terminal: no colours
}, 60_000)
