// Checks a value against the control document's `Har` schema (api/control.openapi.yaml), the HTTP Archive 1.2 schema
// written from the HAR 1.2 specification (docs/decisions/017-har-record-and-replay.md). For the unit tests of the HAR
// export and the replay; the contract suite checks GET /__mock/requests?format=har through its response validation.
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { loadDocument } from '#mock-server/pipeline/openapi-docs.ts'

function compileHarSchema() {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormatsModule.default(ajv)
  ajv.addSchema(loadDocument('control'), 'control')
  return ajv.getSchema('control#/components/schemas/Har')!
}

const validate = compileHarSchema()

/** The ways `value` breaks the HAR 1.2 schema, as `path: message` lines; empty when it is a HAR. */
export function harProblems(value: unknown): string[] {
  if (validate(value)) return []
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'}: ${error.message ?? ''}`)
}
