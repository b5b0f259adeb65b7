/**
 * Derives from the two OpenAPI documents what code would otherwise restate by hand: operations, bearer rules,
 * and each scenario's operations. scripts/gen-api.ts writes the result to api/operations.gen.ts.
 * Pure: imports no file or network; throws on a contract that disagrees with itself.
 */

type Node = Record<string, unknown>

export type BearerRule = 'required' | 'checked' | 'ignored' | 'none'

export interface ApiOperationInfo {
  method: string
  path: string
  /**
   * required: the bearer is needed. checked: optional, but must be good when sent.
   * ignored: optional, never refused. none: no bearer scheme.
   */
  bearer: BearerRule
  /** With `checked`: the body field with which a client leaves its bearer out (`x-optional-bearer.omitted-when-body-has`). */
  bearerOmittedWithField?: string
}

export interface ScenarioRule {
  operations: string[]
  /** Only calls that carried a bearer token match (`x-needs-bearer`). */
  needsBearer: boolean
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const

const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function resolve(doc: Node, node: Node): Node {
  const ref = node.$ref
  if (typeof ref !== 'string') return node
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>(
      (at, key) => (isNode(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined),
      doc,
    )
  if (!isNode(target)) throw new Error(`Failed to resolve ${ref}.`)
  return resolve(doc, target)
}

export function readApiOperations(doc: Node): Record<string, ApiOperationInfo> {
  const out: Record<string, ApiOperationInfo> = {}
  const rootSecurity = Array.isArray(doc.security) ? doc.security : []
  for (const [path, item] of Object.entries(isNode(doc.paths) ? doc.paths : {})) {
    if (!isNode(item)) continue
    for (const method of METHODS) {
      const operation = item[method]
      if (!isNode(operation) || typeof operation.operationId !== 'string') continue
      const security = (Array.isArray(operation.security) ? operation.security : rootSecurity).map(
        (requirement) => Object.keys(isNode(requirement) ? requirement : {}),
      )
      const withBearer = security.filter((names) => names.includes('bearerAuth')).length
      const extension = isNode(operation['x-optional-bearer']) ? operation['x-optional-bearer'] : undefined
      const bearer: BearerRule =
        withBearer === 0
          ? 'none'
          : withBearer === security.length
            ? 'required'
            : extension?.checked === true
              ? 'checked'
              : 'ignored'
      if (extension && bearer !== 'checked')
        throw new Error(
          `${operation.operationId}: x-optional-bearer needs an optional bearerAuth and checked: true.`,
        )
      const field = extension?.['omitted-when-body-has']
      out[operation.operationId] = {
        method: method.toUpperCase(),
        path,
        bearer,
        ...(typeof field === 'string' && { bearerOmittedWithField: field }),
      }
    }
  }
  return out
}

/** Each scenario's rule, keyed by name in the order of the control document's `ScenarioName`. */
export function readScenarioRules(
  control: Node,
  apiOperations: Record<string, ApiOperationInfo>,
): Record<string, ScenarioRule> {
  const schemas =
    isNode(control.components) && isNode(control.components.schemas) ? control.components.schemas : {}
  const names = (
    isNode(schemas.ScenarioName) && Array.isArray(schemas.ScenarioName.enum) ? schemas.ScenarioName.enum : []
  ).map(String)
  const arm = isNode(schemas.ArmRequest) ? schemas.ArmRequest : {}
  const rules: Record<string, ScenarioRule> = {}
  for (const branch of Array.isArray(arm.oneOf) ? arm.oneOf : []) {
    const variant = resolve(control, isNode(branch) ? branch : {})
    const properties = isNode(variant.properties) ? variant.properties : {}
    const name = isNode(properties.name) ? properties.name : {}
    const operation = isNode(properties.operation) ? properties.operation : {}
    const variantNames =
      'const' in name ? [String(name.const)] : Array.isArray(name.enum) ? name.enum.map(String) : []
    const operations = Array.isArray(operation.enum) ? operation.enum.map(String) : []
    for (const id of operations)
      if (!(id in apiOperations))
        throw new Error(`ArmRequest names ${id}, which openapi.yaml does not define.`)
    for (const scenario of variantNames) {
      if (!names.includes(scenario))
        throw new Error(`ArmRequest arms ${scenario}, which ScenarioName does not list.`)
      if (scenario in rules) throw new Error(`ArmRequest has two variants for ${scenario}.`)
      rules[scenario] = { operations, needsBearer: variant['x-needs-bearer'] === true }
    }
  }
  const missing = names.filter((scenario) => !(scenario in rules))
  if (missing.length > 0) throw new Error(`ArmRequest has no variant for ${missing.join(', ')}.`)
  return Object.fromEntries(names.map((scenario) => [scenario, rules[scenario]!]))
}

/** The text of api/operations.gen.ts (before formatting). */
export function renderOperationSets(api: Node, control: Node): string {
  const operations = readApiOperations(api)
  const scenarios = readScenarioRules(control, operations)
  const ids = Object.keys(operations)
  const json = (value: unknown) => JSON.stringify(value, null, 2)
  return [
    `/** Every operation of openapi.yaml: method, path template and bearer rule. */`,
    `export const API_OPERATIONS = ${json(operations)} as const satisfies Record<string, {`,
    `  method: string; path: string; bearer: 'required' | 'checked' | 'ignored' | 'none'; bearerOmittedWithField?: string }>`,
    ``,
    `export type ApiOperationId = keyof typeof API_OPERATIONS`,
    ``,
    `/** The operations a client calls with its bearer token: those whose every security requirement needs it. */`,
    `export const PROTECTED_OPERATIONS = ${json(ids.filter((id) => operations[id]!.bearer === 'required'))} as const`,
    ``,
    `/** The operations a client calls without its bearer token (\`checked\` ones only with \`bearerOmittedWithField\` in the body). */`,
    `export const PUBLIC_OPERATIONS = ${json(ids.filter((id) => operations[id]!.bearer !== 'required'))} as const`,
    ``,
    `/** The control document's scenario names, in its order. */`,
    `export const SCENARIO_NAMES = ${json(Object.keys(scenarios))} as const`,
    ``,
    `export type ScenarioName = (typeof SCENARIO_NAMES)[number]`,
    ``,
    `/** Which operations each scenario applies to, and whether only calls with a bearer token match. */`,
    `export const SCENARIO_RULES = ${json(scenarios)} as const satisfies Record<ScenarioName, { operations: readonly ApiOperationId[]; needsBearer: boolean }>`,
    ``,
  ].join('\n')
}
