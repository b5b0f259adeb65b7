/**
 * The cluster soak (attack suite T18, docs/security/attack-suite.md): `npm run soak:cluster`. Simulated users spread
 * over three real server processes on one PostgreSQL database while one instance is killed (SIGKILL) every few
 * seconds and started again; at the end a fresh instance checks that nothing acknowledged was lost and nobody was
 * signed out who should not be. It exits 1 when anything was.
 *
 * Flags: --users (1000), --instances (3), --concurrency (20), --cycles (2), --refreshes (5), --change-every (4),
 * --kill-every (3s), --server tsx|built (tsx). SOAK_TRACE=1 prints every try of every call on stderr. PostgreSQL: TEST_DATABASE_URL, or the machine's, started as root
 * (harness/postgres.ts).
 */
import { parseArgs } from 'node:util'
import { parseDuration } from '../api/control-values.ts'
import { ensurePostgres } from '../harness/postgres.ts'
import { summarize } from './soak-cluster/report.ts'
import { runClusterSoak } from './soak-cluster/run.ts'

function readOptions() {
  const { values } = parseArgs({
    options: {
      users: { type: 'string', default: '1000' },
      instances: { type: 'string', default: '3' },
      concurrency: { type: 'string', default: '20' },
      cycles: { type: 'string', default: '2' },
      refreshes: { type: 'string', default: '5' },
      'change-every': { type: 'string', default: '4' },
      'kill-every': { type: 'string', default: '3s' },
      server: { type: 'string', default: 'tsx' },
    },
  })
  const count = (name: keyof typeof values, min: number) => {
    const n = Number(values[name])
    if (!Number.isInteger(n) || n < min)
      throw new Error(`--${name} must be a whole number of at least ${min}.`)
    return n
  }
  if (values.server !== 'tsx' && values.server !== 'built') throw new Error('--server must be tsx or built.')
  const killEveryMs = parseDuration(values['kill-every'])
  if (killEveryMs < 100) throw new Error('--kill-every must be at least 100ms.')
  return {
    users: count('users', 1),
    instances: count('instances', 2),
    concurrency: count('concurrency', 1),
    cycles: count('cycles', 1),
    refreshes: count('refreshes', 1),
    changeEvery: count('change-every', 1),
    killEveryMs,
    command: values.server,
  } as const
}

async function main(): Promise<void> {
  const options = readOptions()
  const target = ensurePostgres()
  if ('skipped' in target) throw new Error(target.skipped)
  process.stdout.write(
    `Cluster soak: ${options.users} users over ${options.instances} instances on one PostgreSQL schema, ${options.concurrency} at a time; each signs up, then ${options.cycles} x (sign-in → ${options.refreshes} refreshes → /api/me → log-out, the last kept by every other user), a password change for every ${options.changeEvery}th; one instance killed (SIGKILL) every ${options.killEveryMs / 1000} s and started again on its port\n`,
  )
  const result = await runClusterSoak({
    ...options,
    databaseUrl: target.url,
    progress: (line) => process.stderr.write(`${line}\n`),
    ...(process.env.SOAK_TRACE && { trace: (line: string) => process.stderr.write(`TRACE ${line}\n`) }),
  })
  const { lines, failed } = summarize(result)
  process.stdout.write(`${lines.join('\n')}\n`)
  if (failed) process.exitCode = 1
}

main().catch((error: unknown) => {
  console.error(`Failed to run the cluster soak: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})
