// The two operation tables, each feature's operations side by side: typed by their documents, so a table that loses
// an operation, or gains one its document does not have, fails the typecheck (operation-table.test-d.ts).
import type { operations as ControlOperations } from '#api/control.gen.ts'
import type { operations as ApiOperations } from '#api/openapi.gen.ts'
import type { Control } from '../control/index.ts'
import type { ControlDeps } from '../control/operations.ts'
import type { createExternalSignInFeature } from '../external-sign-in/index.ts'
import { createHarOperations } from '../har/requests.ts'
import type { Health } from '../health/index.ts'
import type { createIdp } from '../idp/index.ts'
import type { Journal } from '../pipeline/journal.ts'
import type { CompiledDocuments } from '../pipeline/openapi-docs.ts'
import type { OperationTable } from '../pipeline/types.ts'
import type { Product } from '../product/index.ts'

export function createApiTable(
  product: Pick<Product, 'operations'>,
  external: Pick<ReturnType<typeof createExternalSignInFeature>, 'operations'>,
): OperationTable<ApiOperations> {
  return { ...product.operations, ...external.operations }
}

export function createControlTable(parts: {
  control: Pick<Control, 'createOperations'>
  idp: Pick<ReturnType<typeof createIdp>, 'operations'>
  journal: Journal
  product: Pick<Product, 'domain' | 'build' | 'settings'>
  reset: ControlDeps['reset']
  health: Pick<Health, 'operations'>
  documents: CompiledDocuments
}): OperationTable<ControlOperations> {
  const { control, idp, journal, product, reset, health, documents } = parts
  return {
    ...control.createOperations({
      documents,
      reset,
      build: product.build,
      domain: product.domain,
      settings: product.settings,
    }),
    ...createHarOperations(journal),
    ...idp.operations,
    ...health.operations,
  }
}
