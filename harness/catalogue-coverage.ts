// Which error-catalogue rows each suite reached in this run, appended to test-results/catalogue/.
// harness/reports/catalogue.ts prints the table.
import { appendFileSync, mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { threadId } from 'node:worker_threads'
import type { Suite } from '#api/error-catalogue.ts'

export const CATALOGUE_RESULTS_DIR = fileURLToPath(new URL('../test-results/catalogue/', import.meta.url))

/** Records that `suite` checked catalogue row `id` (call it after the row's assertions passed). */
export function recordCatalogueRow(id: string, suite: Suite): void {
  mkdirSync(CATALOGUE_RESULTS_DIR, { recursive: true })
  appendFileSync(
    `${CATALOGUE_RESULTS_DIR}${suite}-${process.pid}-${threadId}.jsonl`,
    `${JSON.stringify({ id, suite })}\n`,
  )
}
