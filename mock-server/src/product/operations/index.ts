// The operation tables, keyed by operationId: one for the product API, one for the control surface.
import type { operations as ApiOperations } from '#api/openapi.gen.ts'
import type { operations as ControlOperations } from '#api/control.gen.ts'
import { createAccountOperations } from './account.ts'
import { createAuthOperations } from './auth.ts'
import { createBuildOperations } from './build.ts'
import type { OperationsContext } from './context.ts'
import { createControlOperations } from '../../control/operations.ts'
import { createDocsOperations } from '../../control/docs-operations.ts'
import { createIdpOperations } from '../../idp/operations.ts'
import { createSessionOperations } from './session.ts'
import { createSinkOperations } from '../../control/sink-operations.ts'
import type { OperationTable } from '../../pipeline/types.ts'

export function createOperations(ctx: OperationsContext): OperationTable<ApiOperations> {
  return {
    ...createSessionOperations(ctx),
    ...createAuthOperations(ctx),
    ...createAccountOperations(ctx),
    ...createBuildOperations(ctx),
  }
}

export function createControlTable(ctx: OperationsContext): OperationTable<ControlOperations> {
  return {
    ...createControlOperations(ctx),
    ...createDocsOperations(),
    ...createIdpOperations(ctx),
    ...createSinkOperations(ctx),
  }
}
