/**
 * The bench's load generator and process handling, shared by its sections (scripts/bench/servers.ts,
 * scripts/bench/store-figures.ts): node:http calls on keep-alive agents, a free port, a server process started and
 * waited for until it answers, and a sign-in of a seeded account.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { spawn, type ChildProcess } from 'node:child_process'
import { Agent, request } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'

export interface Answer {
  status: number
  body: string
  headers: Record<string, string | string[] | undefined>
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

export function call(
  agent: Agent | undefined,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: '127.0.0.1', port, method, path, agent: agent ?? false, headers: { ...headers } },
      (response) => {
        let text = ''
        response.setEncoding('utf8')
        response.on('data', (chunk: string) => (text += chunk))
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: text, headers: response.headers }),
        )
      },
    )
    sent.on('error', reject)
    sent.end(body)
  })
}

async function firstOk(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Failed to start: the server exited (${child.exitCode}).`)
    const answer = await call(undefined, port, 'GET', '/api/_auth/session').catch(() => null)
    if (answer?.status === 200) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

export interface Started {
  port: number
  pid: number
  /** Spawn to the first 200 of the session call. */
  coldStartMs: number
  stop(): Promise<void>
}

/** A server process (`args` with `{port}` replaced), once it answers the session call with 200. */
export async function startServer(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Started> {
  const port = await freePort()
  const started = performance.now()
  const child = spawn(
    process.execPath,
    args.map((arg) => arg.replace('{port}', String(port))),
    { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
  )
  // Its log is read and dropped, as a terminal would take it.
  child.stdout!.resume()
  child.stderr!.resume()
  const stop = async () => {
    child.kill('SIGKILL')
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
  }
  try {
    await firstOk(port, child)
  } catch (error) {
    await stop()
    throw error
  }
  return { port, pid: child.pid!, coldStartMs: performance.now() - started, stop }
}

export const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' }

export interface SignedIn {
  token: string
  refresh: string
  /** The session cookie as a Cookie header sends it. */
  cookie: string
}

/** Signs a seeded account of the mock server in (README, seeded accounts). */
export async function signInSeeded(agent: Agent | undefined, port: number): Promise<SignedIn> {
  const login = await call(
    agent,
    port,
    'POST',
    '/api/auth/login',
    JSON_HEADERS,
    JSON.stringify({ email: 'ada@example.com', password: 'analytical-engine-1843' }),
  )
  if (login.status !== 200) throw new Error(`Failed to sign in: the server answered ${login.status}.`)
  const body = JSON.parse(login.body) as { token: string; refresh_token: string }
  const setCookie = [login.headers['set-cookie'] ?? []].flat()
  return { token: body.token, refresh: body.refresh_token, cookie: setCookie[0]?.split(';')[0] ?? '' }
}

/**
 * Signs up a new account on a production server, whose mails go to `outbox` (`--mail-outbox`): it has no seeded
 * accounts and no /__mock mailbox, so the code is read from the mail the server wrote there.
 */
export async function signUpThroughOutbox(
  agent: Agent | undefined,
  port: number,
  outbox: string,
): Promise<SignedIn> {
  const email = `bench-${process.pid}-${Date.now()}@example.com`
  const body = (value: unknown) => JSON.stringify(value)
  const signup = await call(
    agent,
    port,
    'POST',
    '/api/auth/signup',
    JSON_HEADERS,
    body({ name: 'Bench', email, password: 'a long enough passphrase' }),
  )
  if (signup.status !== 202) throw new Error(`Failed to sign up: the server answered ${signup.status}.`)
  let code: string | undefined
  for (let attempt = 0; !code; attempt += 1) {
    const mails = readdirSync(outbox)
      .filter((file) => file.endsWith('.json'))
      .map((file) => JSON.parse(readFileSync(join(outbox, file), 'utf8')) as { to: string; code?: string })
    code = mails.find((mail) => mail.to === email)?.code
    if (!code && attempt > 100) throw new Error('Failed to sign up: no mail reached the outbox.')
    if (!code) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const verify = await call(
    agent,
    port,
    'POST',
    '/api/auth/otp/verify',
    JSON_HEADERS,
    body({ email, code, purpose: 'signup' }),
  )
  if (verify.status !== 200)
    throw new Error(`Failed to verify the sign-up: the server answered ${verify.status}.`)
  const pair = JSON.parse(verify.body) as { token: string; refresh_token: string }
  const setCookie = [verify.headers['set-cookie'] ?? []].flat()
  return { token: pair.token, refresh: pair.refresh_token, cookie: setCookie[0]?.split(';')[0] ?? '' }
}

/** The value at `fraction` (0.5, 0.99) of the sorted samples: the nearest rank. */
export function percentile(sorted: number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!
}
