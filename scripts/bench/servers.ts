/**
 * The mock server beside bare node:http, bare Express 5 and Prism, on the same routes.
 * CPU time is read from the server's own /proc schedstat, so the load generator's work is not counted.
 * Cold start: spawn to the first 200 of the session call.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'

export type RouteName = 'GET /api/_auth/session' | 'GET /api/me' | 'POST /api/refresh_token'
export const ROUTES: RouteName[] = ['GET /api/_auth/session', 'GET /api/me', 'POST /api/refresh_token']

export interface Contender {
  name: string
  /** node's arguments; `{port}` is replaced, and `{dir}` by a fresh empty folder each round. */
  args: string[]
  /** Added to the environment (DATABASE_URL for the PostgreSQL store). */
  env?: Record<string, string>
  /** Run before each round (empties the PostgreSQL store's database). */
  before?: () => Promise<void>
  /** How a signed-in pair is had: the mock server's sign-in of a seeded account, the reference's, or none. */
  signIn: 'mock' | 'reference' | 'none'
}

export interface RoundResult {
  coldStartMs: number
  /** CPU µs per request by route. */
  cpu: Partial<Record<RouteName, number>>
  failures: number
}

interface Answer {
  status: number
  body: string
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** CPU time of every thread of the process, in nanoseconds. */
function cpuNs(pid: number): number {
  let total = 0
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0])
    } catch {
      // A thread that ended between the listing and the read.
    }
  }
  return total
}

function call(
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
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }))
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

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' }

/** One fresh process of `contender`: its cold start, then `requests` calls of each route after a warm-up. */
export async function runRound(
  contender: Contender,
  cwd: string,
  { requests, warmUp, concurrency }: { requests: number; warmUp: number; concurrency: number },
): Promise<RoundResult> {
  const port = await freePort()
  const dir = join(mkdtempSync(join(tmpdir(), 'bench-store-')), 'state')
  await contender.before?.()
  const started = performance.now()
  const child = spawn(
    process.execPath,
    contender.args.map((arg) => arg.replace('{port}', String(port)).replace('{dir}', dir)),
    { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...contender.env } },
  )
  // Its log is read and dropped, as a terminal would take it.
  child.stdout!.resume()
  child.stderr!.resume()
  try {
    await firstOk(port, child)
    const coldStartMs = performance.now() - started
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
    let failures = 0
    // One signed-in pair per connection: each refresh chain rotates on its own.
    const pairs: { token: string; refresh: string }[] = []
    for (let index = 0; index < concurrency; index += 1) {
      if (contender.signIn === 'none') {
        pairs.push({ token: 'eyJhbGciOiJIUzI1NiJ9.e30.x', refresh: 'prism-refresh-token' })
        continue
      }
      const login = await call(
        agent,
        port,
        'POST',
        '/api/auth/login',
        JSON_HEADERS,
        contender.signIn === 'mock'
          ? JSON.stringify({ email: 'ada@example.com', password: 'analytical-engine-1843' })
          : '{}',
      )
      const body = JSON.parse(login.body) as { token: string; refresh_token: string }
      pairs.push({ token: body.token, refresh: body.refresh_token })
    }
    const send = async (route: RouteName, worker: number): Promise<void> => {
      const pair = pairs[worker]!
      let answer: Answer
      if (route === 'GET /api/_auth/session') answer = await call(agent, port, 'GET', '/api/_auth/session')
      else if (route === 'GET /api/me')
        answer = await call(agent, port, 'GET', '/api/me', { authorization: `Bearer ${pair.token}` })
      else {
        answer = await call(
          agent,
          port,
          'POST',
          '/api/refresh_token',
          JSON_HEADERS,
          JSON.stringify({ refresh_token: pair.refresh }),
        )
        const next = answer.status === 200 ? (JSON.parse(answer.body) as { refresh_token?: string }) : {}
        if (contender.signIn !== 'none' && next.refresh_token) pair.refresh = next.refresh_token
      }
      if (answer.status !== 200) failures += 1
    }
    const load = async (route: RouteName, count: number) => {
      let next = 0
      await Promise.all(
        Array.from({ length: concurrency }, async (_unused, worker) => {
          while (next < count) {
            next += 1
            await send(route, worker)
          }
        }),
      )
    }
    const cpu: RoundResult['cpu'] = {}
    let measuredFailures = 0
    for (const route of ROUTES) {
      await load(route, warmUp)
      failures = 0
      const before = cpuNs(child.pid!)
      await load(route, requests)
      cpu[route] = (cpuNs(child.pid!) - before) / requests / 1000
      measuredFailures += failures
    }
    agent.destroy()
    return { coldStartMs, cpu, failures: measuredFailures }
  } finally {
    child.kill('SIGKILL')
    await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)))
  }
}

/** Prism's command line when `@stoplight/prism-cli` is installed (README, Scripts), else null. */
export function prismArgs(root: string): string[] | null {
  const cli = join(root, 'node_modules/@stoplight/prism-cli/dist/index.js')
  return existsSync(cli)
    ? [cli, 'mock', join(root, 'api', 'openapi.yaml'), '-p', '{port}', '-h', '127.0.0.1']
    : null
}
