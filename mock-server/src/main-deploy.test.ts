// The flags of a deployment on two origins (docs/decisions/020-deploying-on-two-origins.md), as `npm run mock` takes
// them: --cors-origin refused unless each value is an origin, and --mail-outbox, where a --production server's mails
// go, codes included, and nowhere else (not the output).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test, vi } from 'vitest'
import { runMain } from '../testing/run-main.ts'

const LISTENING = /listening on (http:\/\/\S+)/

test('--help names --cors-origin and --mail-outbox', async () => {
  const { output, code } = await runMain(['--help'], /--quiet/)
  expect(output).toContain('--cors-origin <o>')
  expect(output).toContain('--mail-outbox <dir>')
  expect(await code).toBe(0)
}, 30_000)

test('a --cors-origin that is no origin, or a wildcard, stops the start (exit 2) and says what an origin is', async () => {
  for (const value of ['*', 'https://app.example/', 'app.example', 'https://app.example,https://*.example']) {
    const refused = await runMain(
      ['--port', '0', '--web', 'none', '--cors-origin', value],
      /Failed to start|listening on/,
    )
    expect(refused.output).toMatch(/Failed to start: --cors-origin takes origins like https:\/\/app\.example/)
    expect(await refused.code).toBe(2)
  }
  const empty = await runMain(
    ['--port', '0', '--web', 'none', '--mail-outbox='],
    /Failed to start|listening on/,
  )
  expect(empty.output).toMatch(/--mail-outbox is empty/)
  expect(await empty.code).toBe(2)
}, 60_000)

test('--production with --cors-origin and --mail-outbox: the named origin reads the answers, the code is in the outbox and not in the output', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-outbox-'))
  const outbox = join(dir, 'mails')
  const app = 'http://127.0.0.1:5173'
  const server = await runMain(
    [
      '--port',
      '0',
      '--web',
      'none',
      '--production',
      '--mail-outbox',
      outbox,
      '--cors-origin',
      `${app},https://app.example`,
    ],
    // The line after the address: stdout may bring the address alone in its first chunk.
    /Calls with credentials from: .*\n/,
  )
  try {
    const origin = LISTENING.exec(server.output)![1]!
    expect(server.output).toContain('Calls with credentials from: http://127.0.0.1:5173, https://app.example')
    const email = 'outbox@example.test'
    const signup = await fetch(`${origin}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app },
      body: JSON.stringify({ name: 'Ada', email, password: 'a long enough passphrase' }),
    })
    expect(signup.status).toBe(202)
    expect(signup.headers.get('access-control-allow-origin')).toBe(app)
    const mails = () => readdirSync(outbox).filter((name) => name.endsWith('.json'))
    await vi.waitFor(() => expect(mails()).toHaveLength(1), { timeout: 15_000, interval: 50 })
    const mail = JSON.parse(readFileSync(join(outbox, mails()[0]!), 'utf8')) as { to: string; code: string }
    expect(mail).toMatchObject({ to: email, purpose: 'signup', code: expect.stringMatching(/^\d{6}$/) })
    const verified = await fetch(`${origin}/api/auth/otp/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: app },
      body: JSON.stringify({ email, code: mail.code, purpose: 'signup' }),
    })
    expect(verified.status).toBe(200)
    // The request log is on (no --quiet): it names the calls, never the code.
    await vi.waitFor(() => expect(server.read()).toContain('POST /api/auth/otp/verify 200'), {
      timeout: 15_000,
      interval: 50,
    })
    expect(server.read()).not.toContain(mail.code)
  } finally {
    server.stop()
    expect(await server.code).toBe(0)
    rmSync(dir, { recursive: true, force: true })
  }
}, 60_000)
