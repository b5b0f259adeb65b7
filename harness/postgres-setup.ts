// Vitest's global setup for the PostgreSQL legs: finds or starts PostgreSQL once per run (harness/postgres.ts) and
// hands its URL to the tests as `inject('databaseUrl')` (null, with one line saying why, when there is none).
import type { TestProject } from 'vitest/node'
import { ensurePostgres } from './postgres.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string | null
  }
}

export function setup(project: TestProject): void {
  // The contract suite needs PostgreSQL only for its PostgreSQL leg (harness/contract-leg.ts).
  if (project.name === 'contracts' && process.env.CONTRACT_STORE !== 'postgres') {
    project.provide('databaseUrl', null)
    return
  }
  const target = ensurePostgres()
  if ('skipped' in target) console.log(target.skipped)
  project.provide('databaseUrl', 'url' in target ? target.url : null)
}
