// The one pipeline of the mock backend: the routes of both documents (production mode leaves out /__mock and /idp),
// the product's token check and call owner, the armed scenarios, the journal, the log, CORS and the control guard.
import type { MockOptions } from './options.ts'
import type { Control } from '../control/index.ts'
import { createControlGuard } from '../pipeline/control-guard.ts'
import { createDispatcher, type Dispatch } from '../pipeline/dispatch.ts'
import type { Journal } from '../pipeline/journal.ts'
import type { CompiledDocuments, DocumentName } from '../pipeline/openapi-docs.ts'
import type { HandlerMap } from '../pipeline/types.ts'
import type { Product } from '../product/index.ts'

export function createMockDispatcher(
  options: MockOptions & { production: boolean },
  parts: {
    tables: Record<DocumentName, HandlerMap>
    product: Pick<Product, 'authenticate' | 'resolveEmail'>
    scenarios: Control['scenarios']
    journal: Journal
    documents: CompiledDocuments
  },
): Dispatch {
  const { production } = options
  const { journal, product, scenarios, documents } = parts
  return createDispatcher({
    routes: [
      ...documents.routes('api'),
      ...documents.routes('control').filter((route) => !production || !route.mockOnly),
    ],
    tables: parts.tables,
    authenticate: product.authenticate,
    scenarios: {
      // Production has no /__mock to arm a scenario and keeps no journal, the only readers of a call's account: it
      // asks the store for neither (two to four round trips fewer per call on PostgreSQL; docs/benchmarks.md).
      take: production ? async () => null : (call) => scenarios.take(call),
      resolveEmail: production ? async () => undefined : product.resolveEmail,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    },
    // Production mode journals nothing: no one can read the journal there (no /__mock), and it would keep every
    // caller's address in memory for nothing.
    journal: production ? () => undefined : (entry, exchange) => journal.record(entry, exchange()),
    ...(options.log && { log: options.log }),
    ...(options.logError && { logError: options.logError }),
    corsOrigins: new Set(options.corsOrigins),
    ...(!production && { guardControl: createControlGuard(options) }),
  })
}
