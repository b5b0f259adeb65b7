// `npm run test:contracts:balancer`: three mock servers on one PostgreSQL schema behind nginx, configured as
// harness/balancer/auth-shell.nginx.conf says, and the contract suite through CONTRACT_TARGET at the balancer
// (docs/contract-suite.md, "Behind a balancer"); then, in process on the same PostgreSQL, the checks a target cannot
// take, so every check of the suite passes on PostgreSQL once. Where PostgreSQL or nginx cannot be had outside CI it
// says so in one line and passes; under CI=true that is a failure. Arguments (`-- generated-input`) filter the
// contract files.
import { spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startNginx } from './balancer/nginx-process.ts'
import { createCluster, type Cluster } from './cluster.ts'
import { ensureNginx } from './nginx.ts'
import { SQL_LEG_REQUESTS } from './leg-requests.ts'
import {
  notPassedOnEither,
  PASSED_THROUGH_BALANCER,
  passedChecks,
  writePassedElsewhere,
} from './passed-elsewhere.ts'
import { ensurePostgres, freshSchema } from './postgres.ts'
import { lowerSessionGroup } from './scheduler.ts'
import { readCtrf } from './reports/ctrf.ts'

const INSTANCES = 3
const REPORT_DIR = 'reports/contracts-balancer'
/** The CTRF report of the in-process run on PostgreSQL (harness/contract-leg.ts). */
const IN_PROCESS_CTRF = 'reports/contracts-postgres/ctrf.json'
/** Calls per instance, from the access log: every instance must have answered its share. */
function callsPerInstance(dir: string, ports: number[]): number[] {
  const lines = readFileSync(join(dir, 'access.log'), 'utf8').split('\n')
  return ports.map((port) => lines.filter((line) => line.startsWith(`127.0.0.1:${port} `)).length)
}

/** One vitest project with `env`, its JUnit file in the leg's reports; resolves to its exit status. */
function runVitest(
  project: string,
  junit: string,
  env: Record<string, string>,
  filters: string[] = [],
  ctrf?: string,
): number {
  const args = ['vitest', 'run', '--project', project, ...filters, '--reporter=default', '--reporter=junit']
  if (ctrf)
    args.push('--reporter=./harness/reports/vitest-ctrf.ts', `--outputFile.ctrf=${REPORT_DIR}/${ctrf}`)
  const run = spawnSync('npx', [...args, `--outputFile.junit=${REPORT_DIR}/${junit}`], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  })
  return run.status ?? 1
}

async function stop(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}

/**
 * The checks that did not pass through the balancer (those a target cannot take), in process on the same
 * PostgreSQL (harness/passed-elsewhere.ts); then every check of the suite must have passed on it one way or the other.
 */
function inProcessRest(): number {
  const balancer = readCtrf(join(REPORT_DIR, 'ctrf.json'))
  const passed = passedChecks(balancer)
  const files = [
    ...new Set(
      balancer.results.tests.filter((test) => test.status !== 'passed').map((test) => test.filePath!),
    ),
  ]
  const total = balancer.results.tests.length
  console.log(
    `PostgreSQL: ${passed.length} of the ${total} checks run passed through the balancer; the other ` +
      `${total - passed.length}, in ${files.length} files, run in process on the same PostgreSQL.`,
  )
  const list = join(REPORT_DIR, 'passed.json')
  writePassedElsewhere(list, { reason: PASSED_THROUGH_BALANCER, checks: passed })
  rmSync(IN_PROCESS_CTRF, { force: true })
  // The calls through the balancer are done. Where Linux groups a session's processes for the scheduler (autogroup),
  // nice -n 10 below weighs only against this leg's own processes: in a session of its own (scripts/run-parallel.ts),
  // the leg's whole group now yields as the other legs' do. A developer's terminal session is left as it is.
  if (process.env.RUN_PARALLEL_SESSION === '1') lowerSessionGroup()
  const run =
    files.length === 0
      ? { status: 0 }
      : // CPU-bound, unlike the calls through the balancer: niced as npm test's other such legs are, or its two
        // workers at the balancer leg's priority would starve their tests' time-outs (docs/decisions/025-ci-minutes.md).
        spawnSync('nice', ['-n', '10', 'npx', 'tsx', 'harness/contract-leg.ts', 'postgres', ...files], {
          stdio: 'inherit',
          env: { ...process.env, CONTRACT_PASSED_ELSEWHERE: list },
        })
  const rest = existsSync(IN_PROCESS_CTRF) ? readCtrf(IN_PROCESS_CTRF) : null
  const missing = notPassedOnEither(balancer, rest)
  if (missing.length > 0) {
    console.error(
      `Failed: ${missing.length} checks passed on PostgreSQL neither through the balancer nor in process:\n  ` +
        missing.slice(0, 20).join('\n  '),
    )
    return 1
  }
  console.log(`PostgreSQL: all ${total} checks run passed on it, through the balancer or in process.`)
  return run.status ?? 1
}

async function main(): Promise<number> {
  const postgres = ensurePostgres()
  if ('skipped' in postgres) return (console.log(postgres.skipped), 0)
  const nginx = ensureNginx()
  if ('skipped' in nginx) return (console.log(nginx.skipped), 0)
  const code = await throughBalancer(postgres.url, nginx.path)
  return code === 0 ? inProcessRest() : code
}

/** The contract suite through nginx in front of the instances, then the cross-instance cases. */
async function throughBalancer(databaseUrl: string, nginxPath: string): Promise<number> {
  const database = await freshSchema(databaseUrl, 'balancer')
  const controlToken = randomBytes(18).toString('base64url')
  const dir = mkdtempSync(join(tmpdir(), 'auth-shell-balancer-'))
  mkdirSync(join(dir, 'client_body'))
  let cluster: Cluster | null = null
  let balancer: ChildProcess | null = null
  try {
    cluster = createCluster({
      count: INSTANCES,
      databaseUrl: database.url,
      controlToken,
      command: 'tsx',
      args: ['--trust-proxy', '1'],
    })
    await cluster.start()
    const ports = cluster.instances.map((instance) => instance.port)
    const started = await startNginx(nginxPath, dir, ports)
    balancer = started.child
    console.log(`Balancer leg: nginx at ${started.origin} in front of ${INSTANCES} instances on one schema.`)
    // The contract suite through the balancer, then the cross-instance cases sent to the instances themselves.
    const suite = runVitest(
      'contracts',
      'junit.xml',
      {
        CONTRACT_TARGET: started.origin,
        CONTRACT_CONTROL_TOKEN: controlToken,
        CONTRACT_TARGET_PROXIED: '1',
        CONTRACT_REPORT_DIR: REPORT_DIR,
        ...SQL_LEG_REQUESTS,
      },
      process.argv.slice(2),
      'ctrf.json',
    )
    const crossInstance = runVitest('cluster', 'cluster-junit.xml', {
      CLUSTER_ORIGINS: ports.map((port) => `http://127.0.0.1:${port}`).join(','),
      CLUSTER_BALANCER: started.origin,
      CLUSTER_CONTROL_TOKEN: controlToken,
    })
    const calls = callsPerInstance(dir, ports)
    console.log(`Balancer leg: calls per instance ${calls.join(' / ')}.`)
    if (calls.some((count) => count === 0)) {
      console.error('Failed: an instance answered no call, so the suite did not run across instances.')
      return 1
    }
    return suite || crossInstance
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error))
    for (const instance of cluster?.instances ?? [])
      if (instance.errors.length > 0)
        console.error(`instance ${instance.index}:\n  ${instance.errors.join('\n  ')}`)
    return 1
  } finally {
    await stop(balancer)
    await cluster?.killAll()
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  }
}

process.exitCode = await main()
