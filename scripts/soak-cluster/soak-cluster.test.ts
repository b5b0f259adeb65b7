// The cluster soak, bounded (docs/security/attack-suite.md, T18): three real server processes on one PostgreSQL
// schema, two of them killed (SIGKILL) under load and started again; a fresh instance then finds everything that was
// acknowledged, and nobody signed out who should not be. `npm run soak:cluster` is the full run (1,000 users).
import { expect, inject, test } from 'vitest'
import { summarize } from './report.ts'
import { runClusterSoak } from './run.ts'

const databaseUrl = inject('databaseUrl')

test.skipIf(databaseUrl === null)(
  '50 users over three instances, two killed mid-load: nothing acknowledged is lost, nobody wrongly signed out',
  async () => {
    const result = await runClusterSoak({
      databaseUrl: databaseUrl!,
      users: 50,
      instances: 3,
      concurrency: 10,
      cycles: 1,
      refreshes: 4,
      changeEvery: 4,
      // Kills after so many calls, not seconds: on a slow or a fast machine both land mid-load.
      killAfterCalls: 150,
      maxKills: 2,
      command: 'built',
    })
    expect(result.kills).toBe(2)
    const { verdict, tally } = result
    expect({
      lost: [...verdict.lostAccounts, ...verdict.lostPasswordChanges, ...verdict.lostSessions],
      wronglySignedOut: tally.wrongSignOuts,
      stillSignedIn: verdict.notSignedOut,
      duplicates: verdict.duplicates,
      cutShort: tally.failures,
    }).toEqual({ lost: [], wronglySignedOut: [], stillSignedIn: [], duplicates: [], cutShort: [] })
    expect(verdict.checked.accounts + tally.withdrawn.length).toBe(50)
    expect(summarize(result).failed).toBe(false)
  },
  240_000,
)
