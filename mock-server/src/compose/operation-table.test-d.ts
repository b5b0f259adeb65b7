// Pins the typed operation table (pipeline/types.ts) to the contract, checked by `npm run typecheck`: a lost
// operation, an undocumented status or a body that does not fit stops the build. Each `@ts-expect-error` fails
// the typecheck if the line it guards ever compiles.
import { expectTypeOf } from 'vitest'
import type { components as ControlComponents, operations as ControlOperations } from '#api/control.gen.ts'
import type { components, operations as ApiOperations } from '#api/openapi.gen.ts'
import type { ApiOperationId } from '#api/operations.gen.ts'
import type { Handler, HandlerMap, InputFor, OutputFor } from '../pipeline/types.ts'
import type { createApiTable, createControlTable } from './tables.ts'

type ApiTable = ReturnType<typeof createApiTable>
type ControlTable = ReturnType<typeof createControlTable>
type Schemas = components['schemas']

// One handler per operationId of each document, and no other.
expectTypeOf<keyof ApiTable>().toEqualTypeOf<ApiOperationId>()
expectTypeOf<keyof ApiTable>().toEqualTypeOf<keyof ApiOperations>()
expectTypeOf<keyof ControlTable>().toEqualTypeOf<keyof ControlOperations>()

// The dispatcher takes either table as it is, with no cast.
expectTypeOf<ApiTable>().toExtend<HandlerMap>()
expectTypeOf<ControlTable>().toExtend<HandlerMap>()

// Inputs: the request body of the operation's schema; none for an operation without one.
expectTypeOf<InputFor<ApiOperations['login']>['body']>().toEqualTypeOf<Schemas['LoginRequest']>()
expectTypeOf<InputFor<ApiOperations['getMe']>['body']>().toEqualTypeOf<undefined>()
expectTypeOf<InputFor<ApiOperations['updateProcessStep']>['path']>().toEqualTypeOf<{ id: string }>()

// Outputs: the exact statuses each operation documents, never its 5XX range (the pipeline's faults).
expectTypeOf<OutputFor<ApiOperations['getMe']>['status']>().toEqualTypeOf<200 | 401>()
expectTypeOf<OutputFor<ApiOperations['login']>['status']>().toEqualTypeOf<
  200 | 400 | 401 | 403 | 413 | 415 | 429
>()
expectTypeOf<OutputFor<ControlOperations['getClock']>['status']>().toEqualTypeOf<200 | 401 | 403>()

type GetMeOutput = OutputFor<ApiOperations['getMe']>
declare const user: { status: 200; body: Schemas['User'] }
declare const teapot: { status: 418; body: Schemas['User'] }
declare const fault: { status: '5XX'; body: Schemas['Error'] }
declare const errorAsUser: { status: 200; body: { error: 'token_invalid' } }
declare const unnamedCode: { status: 401; body: { error: 'nope' } }
// A documented status with its body fits.
export const fits: GetMeOutput = user
// @ts-expect-error: 418 is no status of getMe
export const undocumented: GetMeOutput = teapot
// @ts-expect-error: the 5XX range is the pipeline's, never a handler's answer
export const range: GetMeOutput = fault
// @ts-expect-error: a 200 of getMe carries a user, not an error
export const misplaced: GetMeOutput = errorAsUser
// @ts-expect-error: an error code the contract does not name
export const unnamed: GetMeOutput = unnamedCode

// A handler is typed by its operation: getMe's takes no body and answers getMe's statuses.
expectTypeOf<Handler<ApiOperations['getMe']>>().parameter(0).toEqualTypeOf<InputFor<ApiOperations['getMe']>>()
expectTypeOf<ControlComponents['schemas']['ArmRequest']['name']>().toEqualTypeOf<
  ControlComponents['schemas']['ScenarioName']
>()
