// The cluster soak (docs/security/attack-suite.md, T18): simulated users spread over several real server processes on
// one fresh PostgreSQL schema while a killer SIGKILLs a random instance every few seconds and starts it again; then
// every instance is killed and a fresh one is asked whether all that was acknowledged is there (verify.ts).
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import { freshSchema } from '#harness/postgres.ts'
import { type CallStats, createCaller, newStats, send } from './http.ts'
import { type Cluster, createCluster, type ServerCommand } from '#harness/cluster.ts'
import { createJourney } from './journey.ts'
import { type JourneyConfig, newTally, newUser, type SoakUser, type Tally } from './ledger.ts'
import { createVerifier, findDuplicates, newVerdict, type Verdict } from './verify.ts'

export interface SoakOptions extends JourneyConfig {
  databaseUrl: string
  users: number
  instances: number
  /** Users on their way at once. */
  concurrency: number
  /** A kill this often; or, with killAfterCalls, after every so many calls (a bounded run's kills land mid-load). */
  killEveryMs?: number
  killAfterCalls?: number
  maxKills?: number
  command: ServerCommand
  progress?: (line: string) => void
  /** Every try of every call (http.ts), for finding what happened to one user. */
  trace?: (line: string) => void
}

export interface SoakResult {
  stats: CallStats
  tally: Tally
  verdict: Verdict
  kills: number
  seconds: number
  /** The last error lines of each instance, for the report when something went wrong. */
  instanceErrors: string[]
}

/** Runs `work` on every item, `width` at a time. */
async function pool<T>(
  items: T[],
  width: number,
  work: (item: T) => Promise<void>,
  onDone?: (n: number) => void,
) {
  let next = 0
  let done = 0
  const worker = async () => {
    while (next < items.length) {
      await work(items[next++]!)
      onDone?.((done += 1))
    }
  }
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker))
}

/** Kills a random live instance on schedule (always leaving one serving); its restart runs beside the next kills. */
function startKiller(cluster: Cluster, stats: CallStats, options: SoakOptions) {
  const abort = new AbortController()
  const restarts: Promise<void>[] = []
  let kills = 0
  const due = async () => {
    if (options.killAfterCalls === undefined)
      return sleep(options.killEveryMs ?? 3_000, undefined, { signal: abort.signal })
    const at = (kills + 1) * options.killAfterCalls
    while (stats.calls < at && !abort.signal.aborted) await sleep(20)
  }
  const loop = (async () => {
    while (kills < (options.maxKills ?? Infinity)) {
      await due().catch(() => undefined)
      if (abort.signal.aborted) return
      const live = cluster.instances.filter((instance) => instance.up)
      if (live.length < 2) continue
      kills += 1
      restarts.push(cluster.killAndRestart(live[Math.floor(Math.random() * live.length)]!.index))
    }
  })()
  return async function stop(): Promise<number> {
    abort.abort()
    await loop
    await Promise.all(restarts)
    return kills
  }
}

/** Every instance killed, then a fresh one asked about each user's ledger and for duplicate addresses. */
async function verifyThroughFreshInstance(
  base: Parameters<typeof createCluster>[0],
  users: SoakUser[],
  width: number,
) {
  const fresh = createCluster({ ...base, count: 1 })
  try {
    await fresh.start()
    const verdict = newVerdict()
    await pool(users, width, createVerifier(createCaller(fresh, newStats()), verdict))
    const state = await send(fresh.instances[0]!.port, '127.0.0.1', 'GET', '/__mock/state', {
      headers: { 'x-mock-control-token': base.controlToken },
    })
    verdict.duplicates = findDuplicates(state.body, new Set(users.map((user) => user.email)))
    return verdict
  } finally {
    await fresh.killAll()
  }
}

export async function runClusterSoak(options: SoakOptions): Promise<SoakResult> {
  const database = await freshSchema(options.databaseUrl, 'soak')
  const controlToken = randomBytes(18).toString('base64url')
  const base = { count: options.instances, databaseUrl: database.url, controlToken, command: options.command }
  const cluster = createCluster(base)
  try {
    await cluster.start()
    const stats = newStats()
    const tally = newTally()
    const journey = createJourney(
      createCaller(cluster, stats, options.trace),
      cluster,
      controlToken,
      options,
      tally,
    )
    const users = Array.from({ length: options.users }, (_, index) => newUser(index))
    const stopKiller = startKiller(cluster, stats, options)
    const began = performance.now()
    const seconds = () => ((performance.now() - began) / 1000).toFixed(0)
    await pool(users, options.concurrency, journey, (done) => {
      if (done % 100 === 0) options.progress?.(`${done} users done, ${stats.calls} calls, ${seconds()} s`)
    })
    const kills = await stopKiller()
    await cluster.killAll()
    const verdict = await verifyThroughFreshInstance(base, users, options.concurrency)
    const instanceErrors = cluster.instances.flatMap((instance) =>
      instance.errors.map((line) => `[${instance.index}] ${line}`),
    )
    return { stats, tally, verdict, kills, seconds: (performance.now() - began) / 1000, instanceErrors }
  } finally {
    await cluster.killAll()
    await database.drop()
  }
}
