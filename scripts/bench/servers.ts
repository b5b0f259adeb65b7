/**
 * The mock server beside bare node:http, bare Express 5 and Prism, on the same routes.
 * CPU time is read from the server's own /proc schedstat, so the load generator's work is not counted.
 * Cold start: spawn to the first 200 of the session call. Latency: each measured call, sent to answered, as the
 * load generator (scripts/bench/http.ts) sees it on its keep-alive connections.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { Agent } from 'node:http'
import { join } from 'node:path'
import { call, JSON_HEADERS, percentile, signInSeeded, startServer, type Answer } from './http.ts'

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
  /** Fewer measured calls than the others (the slow SQL stores), so the whole bench keeps to a few minutes. */
  requests?: number
}

export interface RoundResult {
  coldStartMs: number
  /** CPU µs per request by route. */
  cpu: Partial<Record<RouteName, number>>
  /** Latency percentiles by route, in ms. */
  p50: Partial<Record<RouteName, number>>
  p99: Partial<Record<RouteName, number>>
  failures: number
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

/** One signed-in pair per connection, so each refresh chain rotates on its own. */
async function signInPairs(contender: Contender, agent: Agent, port: number, count: number) {
  const pairs: { token: string; refresh: string }[] = []
  for (let index = 0; index < count; index += 1) {
    if (contender.signIn === 'mock') pairs.push(await signInSeeded(agent, port))
    else if (contender.signIn === 'none')
      pairs.push({ token: 'eyJhbGciOiJIUzI1NiJ9.e30.x', refresh: 'prism-refresh-token' })
    else {
      const login = await call(agent, port, 'POST', '/api/auth/login', JSON_HEADERS, '{}')
      const body = JSON.parse(login.body) as { token: string; refresh_token: string }
      pairs.push({ token: body.token, refresh: body.refresh_token })
    }
  }
  return pairs
}

/** Sends one call of `route` with `pair`, rotating the pair's refresh token on a refresh. */
export async function sendRoute(
  agent: Agent,
  port: number,
  route: RouteName,
  pair: { token: string; refresh: string },
  rotate = true,
): Promise<Answer> {
  if (route === 'GET /api/_auth/session') return call(agent, port, 'GET', '/api/_auth/session')
  if (route === 'GET /api/me')
    return call(agent, port, 'GET', '/api/me', { authorization: `Bearer ${pair.token}` })
  const body = JSON.stringify({ refresh_token: pair.refresh })
  const answer = await call(agent, port, 'POST', '/api/refresh_token', JSON_HEADERS, body)
  const next = answer.status === 200 ? (JSON.parse(answer.body) as { refresh_token?: string }) : {}
  if (rotate && next.refresh_token) pair.refresh = next.refresh_token
  return answer
}

/** One fresh process of `contender`: its cold start, then `requests` calls of each route after a warm-up. */
export async function runRound(
  contender: Contender,
  cwd: string,
  settings: { requests: number; warmUp: number; concurrency: number },
): Promise<RoundResult> {
  const { warmUp, concurrency } = settings
  const requests = contender.requests ?? settings.requests
  const scratch = mkdtempSync(join(tmpdir(), 'bench-store-'))
  const dir = join(scratch, 'state')
  await contender.before?.()
  const server = await startServer(
    contender.args.map((arg) => arg.replace('{dir}', dir)),
    cwd,
    contender.env,
  )
  const { port } = server
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: concurrency })
    const pairs = await signInPairs(contender, agent, port, concurrency)
    let failures = 0
    let samples: number[] = []
    const load = async (route: RouteName, count: number) => {
      let next = 0
      await Promise.all(
        pairs.map(async (pair) => {
          while (next < count) {
            next += 1
            const sent = performance.now()
            const answer = await sendRoute(agent, port, route, pair, contender.signIn !== 'none')
            samples.push(performance.now() - sent)
            if (answer.status !== 200) failures += 1
          }
        }),
      )
    }
    const result: RoundResult = { coldStartMs: server.coldStartMs, cpu: {}, p50: {}, p99: {}, failures: 0 }
    for (const route of ROUTES) {
      await load(route, warmUp)
      failures = 0
      samples = []
      const before = cpuNs(server.pid)
      await load(route, requests)
      result.cpu[route] = (cpuNs(server.pid) - before) / requests / 1000
      samples.sort((a, b) => a - b)
      result.p50[route] = percentile(samples, 0.5)
      result.p99[route] = percentile(samples, 0.99)
      result.failures += failures
    }
    agent.destroy()
    return result
  } finally {
    await server.stop()
    // A PGlite store is about 45 MB a round; left behind, a few bench runs fill /tmp.
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** Prism's command line when `@stoplight/prism-cli` is installed (README, Scripts), else null. */
export function prismArgs(root: string): string[] | null {
  const cli = join(root, 'node_modules/@stoplight/prism-cli/dist/index.js')
  return existsSync(cli)
    ? [cli, 'mock', join(root, 'api', 'openapi.yaml'), '-p', '{port}', '-h', '127.0.0.1']
    : null
}
