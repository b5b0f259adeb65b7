/**
 * The stores beside each other beyond CPU and latency (docs/benchmarks.md): database round trips per call, and
 * the throughput of one and of two instances on one PostgreSQL database. Lines to print, as the other sections.
 */
import { measureRoundTrips, type TripFigure } from './round-trips.ts'
import { measureThroughput, THROUGHPUT_ROUTES, type ThroughputResult } from './throughput.ts'

/** How the mock server runs on PostgreSQL: its arguments, and the database emptied before each start. */
export interface PostgresContender {
  url: string
  args: string[]
  empty: () => Promise<void>
}

/** A statement shortened to what names it: a SELECT's column list is left out, the rest cut at 100 characters. */
function shorten(statement: string): string {
  const short = statement.replace(/^SELECT .+? FROM /, 'SELECT ... FROM ')
  return short.length > 100 ? `${short.slice(0, 97)}...` : short
}

/**
 * Round trips beside each other: development (seeded account; each call also reads the clock offset and the armed
 * scenarios) and production, which the target is judged on, since only production is deployed.
 */
function tripLines(development: TripFigure[], production: TripFigure[]): string[] {
  const columns = ['memory', 'PGlite', 'PG develop', 'PG product']
  const lines = [
    `${'round trips per call'.padEnd(36)}${columns.map((c) => c.padStart(12)).join('')}   target`,
  ]
  const notMet: TripFigure[] = []
  for (const [index, figure] of production.entries()) {
    const met = figure.perCall <= figure.target
    if (!met) notMet.push(figure)
    // Memory has no database; PGlite runs the same SQL store in the server's own process, so no call leaves it.
    const cells = ['none', 'in process', development[index]!.perCall.toFixed(1), figure.perCall.toFixed(1)]
    lines.push(
      `${figure.route.padEnd(36)}${cells.map((cell) => cell.padStart(12)).join('')}   <= ${figure.target} ${met ? 'met' : 'NOT met'}`,
    )
  }
  for (const { route, connectionsOpened } of [...development, ...production]) {
    if (connectionsOpened > 0)
      lines.push(
        `${route}: ${connectionsOpened} connections opened while counting (their start-up is not counted)`,
      )
  }
  for (const figure of notMet) {
    lines.push(`${figure.route}, round trips of one call on PostgreSQL in production:`)
    for (const { statement, perCall } of figure.statements)
      lines.push(`  ${perCall.toFixed(1).padStart(4)} x ${shorten(statement)}`)
  }
  return lines
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length / 2
  return sorted.length % 2 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

async function throughputLines(postgres: PostgresContender, cwd: string): Promise<string[]> {
  const rounds = Number(process.env.BENCH_THROUGHPUT_ROUNDS ?? 2)
  const settings = {
    connections: 16,
    warmUpMs: 800,
    measureMs: Number(process.env.BENCH_THROUGHPUT_MS ?? 3000),
  }
  const env = { DATABASE_URL: postgres.url }
  const results: Record<1 | 2, ThroughputResult[]> = { 1: [], 2: [] }
  for (let round = 0; round < rounds; round += 1) {
    // Each round turns the order, so neither always runs on a machine the other has just warmed.
    for (const instances of round % 2 ? ([2, 1] as const) : ([1, 2] as const))
      results[instances].push(
        await measureThroughput(instances, postgres.args, cwd, env, postgres.empty, settings),
      )
  }
  const lines = [
    `${rounds} rounds, ${settings.connections} keep-alive connections in all, ${settings.measureMs} ms a route after ${settings.warmUpMs} ms to warm up; calls spread over the instances in turn`,
    `${'requests/s on PostgreSQL'.padEnd(36)}${'1 instance'.padStart(14)}${'2 instances'.padStart(14)}${'2 over 1'.padStart(14)}`,
  ]
  for (const route of THROUGHPUT_ROUTES) {
    const [one, two] = ([1, 2] as const).map((n) => median(results[n].map((r) => r.perSecond[route])))
    lines.push(
      `${route.padEnd(36)}${one!.toFixed(0).padStart(14)}${two!.toFixed(0).padStart(14)}${`${(two! / one!).toFixed(2)}x`.padStart(14)}`,
    )
  }
  const failures = [...results[1], ...results[2]].reduce((sum, result) => sum + result.failures, 0)
  if (failures > 0) lines.push(`${failures} calls under load did not answer 200`)
  return lines
}

export async function benchStoreFigures(postgres: PostgresContender | null, cwd: string): Promise<string[]> {
  if (!postgres) return ['PostgreSQL cannot be had here: round trips and throughput are not measured.']
  await postgres.empty()
  const counting = { calls: 10, warmUp: 5 }
  const development = await measureRoundTrips(postgres.url, postgres.args, cwd, {
    ...counting,
    production: false,
  })
  await postgres.empty()
  const production = await measureRoundTrips(postgres.url, postgres.args, cwd, {
    ...counting,
    production: true,
  })
  return [
    'Counted on the wire between the server and PostgreSQL, one call at a time (scripts/bench/pg-round-trips.ts)',
    ...tripLines(development, production),
    '',
    ...(await throughputLines(postgres, cwd)),
  ]
}
