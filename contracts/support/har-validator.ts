/**
 * Checks a value against the control document's `Har` schema (mock-server/control.openapi.yaml), the HTTP Archive 1.2
 * schema written from the HAR 1.2 specification (docs/decisions/017-har-record-and-replay.md). For the unit tests of
 * the HAR builder and the replay; the contract suite checks the answers of `GET /__mock/requests?format=har` through
 * its usual response validation.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { loadProjectDocuments } from '#contracts/support/openapi-documents.ts'

let validate: ValidateFunction | undefined

/** The ways `value` breaks the HAR 1.2 schema, as `path: message` lines; empty when it is a HAR. */
export function harProblems(value: unknown): string[] {
  if (!validate) {
    const control = loadProjectDocuments().find((document) => document.name === 'control')!
    const ajv = new Ajv2020({ strict: false, allErrors: true })
    addFormatsModule.default(ajv)
    ajv.addSchema(control.doc, 'control')
    validate = ajv.getSchema('control#/components/schemas/Har')!
  }
  if (validate(value)) return []
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message ?? ''}`)
}
