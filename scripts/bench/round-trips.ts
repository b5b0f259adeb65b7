/**
 * Database round trips per call of the mock server on PostgreSQL, counted on the wire (scripts/bench/pg-round-trips.ts):
 * one server started through the relay, one call at a time, each call's round trips the relay saw from its start to
 * the moment the wire went quiet after it (writes made after the answer count for the call that made them).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { call, signInSeeded, signUpThroughOutbox, startServer } from './http.ts'
import { startRoundTripCounter } from './pg-round-trips.ts'
import { sendRoute, type RouteName } from './servers.ts'

export type TripRoute = RouteName | 'GET /api/_auth/session, signed in'

export interface TripFigure {
  route: TripRoute
  /** Round trips per call: the mean over the calls. */
  perCall: number
  /** The target for the call (docs/benchmarks.md, "Round trips"). */
  target: number
  /** The statements one call sends, each with its count per call. */
  statements: { statement: string; perCall: number }[]
  /** Connections the server opened while its calls were counted: their start-up exchange is not in `perCall`. */
  connectionsOpened: number
}

export const TRIP_TARGETS: Record<TripRoute, number> = {
  'GET /api/_auth/session': 1,
  'GET /api/_auth/session, signed in': 1,
  'GET /api/me': 1,
  'POST /api/refresh_token': 2,
}

/** Resolves once `count()` has not changed for `quietMs`, polled every 20 ms. */
async function quiet(count: () => number, quietMs = 150): Promise<void> {
  let last = count()
  let since = performance.now()
  while (performance.now() - since < quietMs) {
    await new Promise((resolve) => setTimeout(resolve, 20))
    if (count() !== last) {
      last = count()
      since = performance.now()
    }
  }
}

/**
 * Counts, for each route, the round trips of `calls` calls made one at a time after `warmUp` others. In production
 * (`--production`) the server has no seeded account: the bench signs one up, reading its code from the outbox.
 */
export async function measureRoundTrips(
  url: string,
  args: string[],
  cwd: string,
  { calls, warmUp, production }: { calls: number; warmUp: number; production: boolean },
): Promise<TripFigure[]> {
  const relay = await startRoundTripCounter(url)
  const outbox = mkdtempSync(join(tmpdir(), 'bench-outbox-'))
  const modeArgs = production ? ['--production', '--mail-outbox', join(outbox, 'mails')] : []
  const server = await startServer([...args, ...modeArgs], cwd, { DATABASE_URL: relay.url })
  const agent = new Agent({ keepAlive: true, maxSockets: 1 })
  try {
    const pair = production
      ? await signUpThroughOutbox(agent, server.port, join(outbox, 'mails'))
      : await signInSeeded(agent, server.port)
    const send = (route: TripRoute) =>
      route === 'GET /api/_auth/session, signed in'
        ? call(agent, server.port, 'GET', '/api/_auth/session', { cookie: pair.cookie })
        : sendRoute(agent, server.port, route, pair)
    const figures: TripFigure[] = []
    for (const route of Object.keys(TRIP_TARGETS) as TripRoute[]) {
      for (let index = 0; index < warmUp; index += 1) await send(route)
      const counts = new Map<string, number>()
      let total = 0
      await quiet(() => relay.trips().length)
      const connectionsBefore = relay.connections()
      for (let index = 0; index < calls; index += 1) {
        const before = relay.trips().length
        const answer = await send(route)
        if (answer.status !== 200)
          throw new Error(`Failed to count round trips: ${route} answered ${answer.status}.`)
        await quiet(() => relay.trips().length)
        const trips = relay.trips().slice(before)
        total += trips.length
        for (const statement of trips) counts.set(statement, (counts.get(statement) ?? 0) + 1)
      }
      figures.push({
        route,
        perCall: total / calls,
        target: TRIP_TARGETS[route],
        statements: [...counts].map(([statement, count]) => ({ statement, perCall: count / calls })),
        connectionsOpened: relay.connections() - connectionsBefore,
      })
    }
    return figures
  } finally {
    agent.destroy()
    await server.stop()
    await relay.close()
    rmSync(outbox, { recursive: true, force: true })
  }
}
