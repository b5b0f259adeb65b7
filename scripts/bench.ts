/**
 * Benchmarks printed side by side, since timed assertions in tests would be flaky. `npm run bench`.
 * 1. password hashing: argon2id against the scrypt reference of ADR 003;
 * 2. the mock server's CPU per request, latency and cold start beside bare servers and Prism, on each of its stores
 *    (scripts/bench/servers.ts);
 * 3. the stores' database round trips per call and the throughput of one and two instances on PostgreSQL
 *    (scripts/bench/store-figures.ts);
 * 4. the initial JavaScript of /login beside a bare React app (scripts/bench-bundle.ts).
 */
import { scrypt } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { hash } from '@node-rs/argon2'
import { build } from 'esbuild'
import { ARGON2_PARAMS } from '../mock-server/src/shared/constants.ts'
import { benchBundle } from './bench-bundle.ts'
import { ensurePostgres, type PostgresTarget } from '../harness/postgres.ts'
import { openPostgres } from '../mock-server/src/compose/sql-drivers.ts'
import { buildServer } from './build-server.ts'
import {
  prismArgs,
  ROUTES,
  runRound,
  type Contender,
  type RoundResult,
  type RouteName,
} from './bench/servers.ts'
import { benchStoreFigures } from './bench/store-figures.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: string,
  length: number,
  options: object,
) => Promise<Buffer>

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

async function time(runs: number, task: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = []
  for (let run = 0; run < runs; run += 1) {
    const started = performance.now()
    await task()
    samples.push(performance.now() - started)
  }
  return samples
}

function row(label: string, samples: number[], unit: 'ms' | 'µs'): string {
  const scale = unit === 'µs' ? 1000 : 1
  const format = (value: number) => (value * scale).toFixed(unit === 'µs' ? 0 : 1).padStart(8)
  return `${label.padEnd(46)} median ${format(median(samples))} ${unit}   min ${format(Math.min(...samples))} ${unit}   n=${samples.length}`
}

async function benchHashing(): Promise<string[]> {
  const argon = await time(10, () => hash('correct horse battery staple', { ...ARGON2_PARAMS, algorithm: 2 }))
  const scryptSamples = await time(5, () =>
    scryptAsync('correct horse battery staple', 'salt-salt-salt-1', 64, {
      N: 2 ** 17,
      r: 8,
      p: 1,
      maxmem: 256 * 1024 * 1024,
    }),
  )
  return [
    row('argon2id m=19MiB t=2 p=1 (@node-rs/argon2)', argon, 'ms'),
    row('scrypt N=2^17 r=8 p=1 (node:crypto)', scryptSamples, 'ms'),
  ]
}

/** Compiles a reference server (scripts/bench/*.ts) to JavaScript in dist/bench/, so no compiler runs at its start. */
async function compileReference(name: string): Promise<string> {
  const out = `${root}dist/bench/${name}.mjs`
  await build({
    entryPoints: [`${root}scripts/bench/${name}.ts`],
    outfile: out,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  })
  return out
}

/** A fresh start for the PostgreSQL contender: no tables, so it migrates and seeds as a new deployment does. */
async function emptyDatabase(url: string): Promise<void> {
  const sql = openPostgres(url, () => undefined)
  await sql.exec('DROP SCHEMA public CASCADE; CREATE SCHEMA public')
  await sql.close()
}

async function benchServers(postgres: PostgresTarget): Promise<string[]> {
  const contenders: Contender[] = [
    {
      name: 'mock server',
      args: [`${root}dist/mock-server/main.js`, '--port', '{port}', '--web', 'none'],
      signIn: 'mock',
    },
    {
      name: 'node:http',
      args: [await compileReference('bare-http'), '--port', '{port}'],
      signIn: 'reference',
    },
    {
      name: 'express+jose',
      args: [await compileReference('bare-express'), '--port', '{port}'],
      signIn: 'reference',
    },
  ]
  const prism = prismArgs(root)
  if (prism) contenders.push({ name: 'prism', args: prism, signIn: 'none' })
  // The SQL stores beside memory (docs/decisions/024-storage-port.md). PostgreSQL's own CPU is not counted: the
  // figure is the server process's, as for every contender.
  // They run fewer calls: a PGlite call costs several times a memory one, and the bench keeps to a few minutes.
  const sqlRequests = Number(process.env.BENCH_SQL_REQUESTS ?? 1000)
  const main = `${root}dist/mock-server/main.js`
  contenders.push({
    name: 'mock on PGlite',
    args: [main, '--port', '{port}', '--web', 'none', '--data', '{dir}'],
    signIn: 'mock',
    requests: sqlRequests,
  })
  if ('url' in postgres) {
    contenders.push({
      name: 'mock on PostgreSQL',
      args: [main, '--port', '{port}', '--web', 'none'],
      env: { DATABASE_URL: postgres.url },
      signIn: 'mock',
      requests: sqlRequests,
      before: () => emptyDatabase(postgres.url),
    })
  }
  const rounds = Number(process.env.BENCH_ROUNDS ?? 4)
  const settings = {
    requests: Number(process.env.BENCH_REQUESTS ?? 2000),
    warmUp: 300,
    concurrency: 4,
  }
  const results = new Map<string, RoundResult[]>(contenders.map((contender) => [contender.name, []]))
  for (let round = 0; round < rounds; round += 1) {
    // Each round turns the order, so no server always runs first (or after the same one) on a busy machine.
    const order = contenders.map((_unused, index) => contenders[(index + round) % contenders.length]!)
    for (const contender of order)
      results.get(contender.name)!.push(await runRound(contender, root, settings))
  }
  const names = contenders.map((contender) => contender.name)
  const medianOf = (name: string, pick: (result: RoundResult) => number) =>
    median(results.get(name)!.map(pick))
  // Wide enough for the longest heading ("mock/mock on PostgreSQL"), so columns never run together.
  const width = Math.max(16, ...names.map((name) => name.length + 7))
  const cell = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : 'n/a').padStart(width)
  const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a').padStart(width)
  const others = names.slice(1)
  const lines = [
    `${rounds} rounds, fresh processes, ${settings.requests} requests a route (${sqlRequests} on the SQL stores) after ${settings.warmUp} to warm up, ${settings.concurrency} keep-alive connections`,
    `${'server CPU per request (µs)'.padEnd(28)}${names.map((name) => name.padStart(width)).join('')}${others.map((name) => ` mock/${name}`.padStart(width)).join('')}`,
  ]
  for (const route of ROUTES) {
    const values = names.map((name) => medianOf(name, (result) => result.cpu[route] ?? Number.NaN))
    lines.push(
      `${route.padEnd(28)}${values.map(cell).join('')}${values
        .slice(1)
        .map((value) => ratio(values[0]! / value))
        .join('')}`,
    )
  }
  const cold = names.map((name) => medianOf(name, (result) => result.coldStartMs))
  lines.push(
    `${'cold start, spawn to 200 (ms)'.padEnd(28)}${cold.map(cell).join('')}${cold
      .slice(1)
      .map((value) => ratio(cold[0]! / value))
      .join('')}`,
  )
  // Latency as the load generator saw it, under the same load as the CPU figures: median p50 / median p99.
  lines.push('latency p50/p99 (ms)')
  const latency = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : 'n/a')
  for (const route of ROUTES) {
    const cells = names.map((name) => {
      const p50 = medianOf(name, (result) => result.p50[route] ?? Number.NaN)
      const p99 = medianOf(name, (result) => result.p99[route] ?? Number.NaN)
      return `${latency(p50)}/${latency(p99)}`.padStart(width)
    })
    lines.push(`${`  ${route}`.padEnd(28)}${cells.join('')}`)
  }
  // The budgets of the mock server (docs/decisions/013-mock-server-speed.md): the mock's median over another's.
  const cpuOf = (route: RouteName) => (result: RoundResult) => result.cpu[route] ?? Number.NaN
  const budgets: { label: string; pick: (result: RoundResult) => number; against: string; limit: number }[] =
    [
      {
        label: 'GET /api/_auth/session CPU',
        pick: cpuOf('GET /api/_auth/session'),
        against: 'prism',
        limit: 0.5,
      },
      { label: 'GET /api/me CPU', pick: cpuOf('GET /api/me'), against: 'prism', limit: 0.5 },
      {
        label: 'POST /api/refresh_token CPU',
        pick: cpuOf('POST /api/refresh_token'),
        against: 'express+jose',
        limit: 1.2,
      },
      { label: 'cold start', pick: (result) => result.coldStartMs, against: 'prism', limit: 0.5 },
    ]
  lines.push('budgets:')
  for (const { label, pick, against, limit } of budgets) {
    const head = `  ${label.padEnd(28)} mock/${against} <= ${limit.toFixed(2)}x:`
    if (!names.includes(against)) {
      lines.push(`${head} not measured (${against} is not installed)`)
      continue
    }
    const value = medianOf(names[0]!, pick) / medianOf(against, pick)
    lines.push(`${head} ${value.toFixed(2)}x ${value <= limit ? 'met' : 'NOT met'}`)
  }
  for (const name of names) {
    const failures = results.get(name)!.reduce((sum, result) => sum + result.failures, 0)
    if (failures > 0) lines.push(`${name}: ${failures} measured requests did not answer 200`)
  }
  if (!prism)
    lines.push('Prism is not installed: npm install --no-save @stoplight/prism-cli (README, Scripts)')
  return lines
}

console.log(`Node ${process.version}, ${(await import('node:os')).cpus().length} cores\n`)
// BENCH_ONLY=servers runs the servers and stores sections alone, BENCH_ONLY=stores the stores section.
const only = process.env.BENCH_ONLY
if (!only || only === 'hashing') {
  console.log('Password hashing (one hash):')
  for (const line of await benchHashing()) console.log(`  ${line}`)
}
if (!only || only === 'servers' || only === 'stores') {
  await buildServer()
  const postgres = ensurePostgres()
  if (only !== 'stores') {
    console.log('\nServers side by side (median of the rounds; ratios: the mock server over each other):')
    for (const line of await benchServers(postgres)) console.log(`  ${line}`)
  }
  console.log('\nThe stores side by side: database round trips per call, instances on one PostgreSQL:')
  const contender =
    'url' in postgres
      ? {
          url: postgres.url,
          args: [`${root}dist/mock-server/main.js`, '--port', '{port}', '--web', 'none'],
          empty: () => emptyDatabase(postgres.url),
        }
      : null
  for (const line of await benchStoreFigures(contender, root)) console.log(line ? `  ${line}` : '')
}
if (!only || only === 'bundle') {
  console.log('\nInitial JavaScript of /login (fresh production build) beside a bare React + router build:')
  for (const line of await benchBundle()) console.log(`  ${line}`)
}
