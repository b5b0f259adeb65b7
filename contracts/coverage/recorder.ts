/**
 * The worker side of the contract coverage: one JSON line per exercised pair or undocumented request.
 * Workers share no memory, so each appends to its own file in the run directory from global-setup.ts.
 */
import { appendFileSync } from 'node:fs'
import { join } from 'node:path'
import { threadId } from 'node:worker_threads'
import { inject } from 'vitest'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run directory of the contract coverage records; provided by contracts/coverage/global-setup.ts. */
    contractCoverageDir: string
  }
}

export const COVERAGE_DIR_KEY = 'contractCoverageDir'

export type CoverageRecord =
  | { kind: 'documented'; document: string; operationId: string; status: string }
  | { kind: 'undocumented'; method: string; path: string; status: number }

/** The run directory of the coverage records, or undefined outside a contracts run. */
export function getCoverageDir(): string | undefined {
  try {
    return inject(COVERAGE_DIR_KEY) as string | undefined
  } catch {
    return undefined // not inside a vitest worker
  }
}

/**
 * Appends one record to this worker's file. A no-op outside the contracts project (no run directory
 * provided), so the support modules stay usable from unit tests.
 * @example appendCoverageRecord({ kind: 'documented', document: 'openapi', operationId: 'getMe', status: '200' })
 */
export function appendCoverageRecord(record: CoverageRecord): void {
  const dir = getCoverageDir()
  if (!dir) return
  appendFileSync(join(dir, `${process.pid}-${threadId}.jsonl`), JSON.stringify(record) + '\n')
}
