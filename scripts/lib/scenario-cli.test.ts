// The QA command line against a real mock server on a free port.
import type { AddressInfo } from 'node:net'
import type { Server } from 'node:http'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { createApp } from '../../mock-server/src/app.ts'
import { runScenarioCommand } from './scenario-cli.ts'

let server: Server
let baseUrl: string
beforeAll(async () => {
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 } })
  await app.core.ready
  server = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => server.once('listening', resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

async function run(...argv: string[]) {
  const lines: string[] = []
  const code = await runScenarioCommand(argv, { fetch, baseUrl, print: (line) => lines.push(line) })
  return { code, output: lines.join('\n') }
}

test('arms a scenario for one account, lists it, and clears it', async () => {
  const armed = await run('access-token-expired', '--email', 'ada@example.com', '--times', '2')
  expect(armed.code).toBe(0)
  expect(JSON.parse(armed.output)).toMatchObject({
    name: 'access-token-expired',
    email: 'ada@example.com',
    remaining: 2,
  })
  expect(JSON.parse((await run('list')).output).armed).toHaveLength(1)
  expect(JSON.parse((await run('clear', '--email', 'ada@example.com')).output)).toEqual({ cleared: 1 })
})

test('moves the clock by a duration', async () => {
  const before = JSON.parse((await run('clock')).output).offset_ms as number
  const after = JSON.parse((await run('clock', '+15m')).output).offset_ms as number
  expect(after - before).toBe(900_000)
})

test('reads a mailbox and the journal, and resets', async () => {
  await fetch(`${baseUrl}/api/auth/forgot`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'grace@example.com' }),
  })
  expect(JSON.parse((await run('mailbox', 'grace@example.com')).output).messages[0].purpose).toBe('reset')
  expect(JSON.parse((await run('requests', '--email', 'grace@example.com')).output).requests[0].path).toBe(
    '/api/auth/forgot',
  )
  expect((await run('reset')).code).toBe(0)
  expect(JSON.parse((await run('mailbox', 'grace@example.com')).output).messages).toEqual([])
})

test('a refused scenario exits 1 with the reason; bad usage exits 2 with the help', async () => {
  const refused = await run('meteor-strike')
  expect(refused.code).toBe(1)
  expect(refused.output).toContain('validation_failed')
  const usage = await run('clock', '+soon')
  expect(usage.code).toBe(2)
  expect(usage.output).toContain('Usage: npm run scenario')
  expect((await run('--help')).code).toBe(0)
})

test('says so when no server answers', async () => {
  const lines: string[] = []
  const code = await runScenarioCommand(['list'], {
    fetch,
    baseUrl: 'http://127.0.0.1:9',
    print: (line) => lines.push(line),
  })
  expect(code).toBe(1)
  expect(lines.join('')).toMatch(/Is it running/)
})

test('passes the control token of a server that has one (MOCK_CONTROL_TOKEN), and resets with a JSON body', async () => {
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 }, controlToken: 'qa-secret-token' })
  await app.core.ready
  const guarded = app.listen(0, '127.0.0.1')
  await new Promise((resolve) => guarded.once('listening', resolve))
  const url = `http://127.0.0.1:${(guarded.address() as AddressInfo).port}`
  const lines: string[] = []
  const io = (controlToken?: string) => ({
    fetch,
    baseUrl: url,
    ...(controlToken && { controlToken }),
    print: (line: string) => lines.push(line),
  })
  try {
    expect(await runScenarioCommand(['list'], io())).toBe(1)
    expect(lines.join('\n')).toContain('control_token_required')
    expect(await runScenarioCommand(['list'], io('qa-secret-token'))).toBe(0)
    expect(await runScenarioCommand(['reset'], io('qa-secret-token'))).toBe(0)
  } finally {
    await new Promise((resolve) => guarded.close(resolve))
  }
})
