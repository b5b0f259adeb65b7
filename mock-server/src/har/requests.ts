// GET /__mock/requests: the journal as JSON, or as an HTTP Archive with `format=har` (har-export.ts); the same
// operation in mock mode (core.ts) and in replay mode (replay-core.ts), so what a recording exports is what a replay
// serves.
import type { operations } from '#api/control.gen.ts'
import { validationFailed } from '../pipeline/answers.ts'
import { parseSince } from '#api/control-values.ts'
import type { Journal } from '../pipeline/journal.ts'
import type { OperationTable } from '../pipeline/types.ts'
import { toHar } from './har-export.ts'

type GetRequests = OperationTable<Pick<operations, 'getRequests'>>['getRequests']

export async function readJournal(journal: Journal, query: Parameters<GetRequests>[0]['query']) {
  if (query.since !== undefined) {
    try {
      parseSince(query.since)
    } catch (error) {
      return validationFailed('since', (error as Error).message)
    }
  }
  const filter = { email: query.email, since: query.since }
  if (query.format === 'har') return { status: 200 as const, body: toHar(await journal.records(filter)) }
  return { status: 200 as const, body: { requests: await journal.list(filter) } }
}

/** The har feature's operation of the control document, over the journal the pipeline records into. */
export function createHarOperations(journal: Journal): OperationTable<Pick<operations, 'getRequests'>> {
  return { getRequests: ({ query }) => readJournal(journal, query) }
}
