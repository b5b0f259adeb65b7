/**
 * Requests per second at saturation of one and of two mock server processes on one PostgreSQL database
 * (docs/benchmarks.md, "Throughput"): as many keep-alive connections as keep every process busy, each worker
 * sending its calls to the instances in turn, so a refresh chain rotates on both and every answer needs the
 * shared database. On a machine of few cores the instances, PostgreSQL and the load generator share them.
 */
import { Agent } from 'node:http'
import { signInSeeded, startServer, type SignedIn, type Started } from './http.ts'
import { sendRoute, type RouteName } from './servers.ts'

export interface ThroughputSettings {
  /** Connections over all instances. */
  connections: number
  warmUpMs: number
  measureMs: number
}

export type ThroughputRoute = Extract<RouteName, 'GET /api/me' | 'POST /api/refresh_token'>
export const THROUGHPUT_ROUTES: ThroughputRoute[] = ['GET /api/me', 'POST /api/refresh_token']

export interface ThroughputResult {
  /** Answers 200 per second, by route. */
  perSecond: Record<ThroughputRoute, number>
  failures: number
}

/** `instances` fresh processes on the database `env` names (emptied by `before`), loaded route by route. */
export async function measureThroughput(
  instances: number,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  before: () => Promise<void>,
  settings: ThroughputSettings,
): Promise<ThroughputResult> {
  await before()
  const servers: Started[] = []
  // One after the other: the first migrates and seeds the empty database, the next loads it.
  try {
    for (let index = 0; index < instances; index += 1) servers.push(await startServer(args, cwd, env))
    const agents = servers.map(() => new Agent({ keepAlive: true, maxSockets: settings.connections }))
    const target = (worker: number, sent: number) => (worker + sent) % servers.length
    const pairs: SignedIn[] = []
    for (let worker = 0; worker < settings.connections; worker += 1) {
      const at = target(worker, 0)
      pairs.push(await signInSeeded(agents[at], servers[at]!.port))
    }
    const result: ThroughputResult = { perSecond: {} as ThroughputResult['perSecond'], failures: 0 }
    for (const route of THROUGHPUT_ROUTES) {
      const load = async (ms: number) => {
        const until = performance.now() + ms
        let ok = 0
        let failed = 0
        await Promise.all(
          pairs.map(async (pair, worker) => {
            for (let sent = 0; performance.now() < until; sent += 1) {
              const at = target(worker, sent)
              const answer = await sendRoute(agents[at]!, servers[at]!.port, route, pair)
              if (answer.status === 200) ok += 1
              else failed += 1
            }
          }),
        )
        return { ok, failed }
      }
      await load(settings.warmUpMs)
      const started = performance.now()
      const { ok, failed } = await load(settings.measureMs)
      result.perSecond[route] = ok / ((performance.now() - started) / 1000)
      result.failures += failed
    }
    for (const agent of agents) agent.destroy()
    return result
  } finally {
    for (const server of servers) await server.stop()
  }
}
