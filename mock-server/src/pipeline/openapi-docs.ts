// Reads the OpenAPI documents and turns them into routes with request validators (Ajv, JSON Schema
// 2020-12, the dialect of OpenAPI 3.1). Both hosts route through these, so a path or a request rule
// exists once: in the document.
import { readFileSync } from 'node:fs'
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { parse } from 'yaml'
import { BUILD_TIME } from '../shared/build-time.ts'
import { MAX_BODY_BYTES } from '../shared/constants.ts'

export type DocumentName = 'api' | 'control'

const FILES: Record<DocumentName, string> = {
  api: '../../../api/openapi.yaml',
  control: '../../../api/control.openapi.yaml',
}

interface ParameterObject {
  name: string
  in: 'query' | 'path' | 'header' | 'cookie'
  required?: boolean
  schema: object
}

export interface Route {
  document: DocumentName
  operationId: string
  method: string
  template: string
  pattern: RegExp
  pathNames: string[]
  /** Media type of the request body, when it has one. */
  bodyType?: string
  validateBody?: ValidateFunction
  validateQuery: ValidateFunction
  validatePath: ValidateFunction
  /** The security requirements, e.g. [['bearerAuth'], []] (an empty one = anonymous allowed). */
  security: string[][]
  /** What a bearer token means to the operation, read from `security` and `x-optional-bearer`. */
  bearer: BearerPolicy
  /** The largest body accepted (`x-max-body-bytes`, default 16 KiB). */
  maxBodyBytes: number
  /** Answers CORS preflights and adds CORS headers (`x-cors`). */
  cors: boolean
  /** Served by the mock only: /__mock, the sinks and the mock identity provider; off with --production. */
  mockOnly: boolean
  /**
   * Refuses a query parameter the operation does not declare, or one given twice: /__mock only, where a mistyped
   * filter (`?emial=`) would otherwise list every account's calls. The product API and /idp ignore unknown ones,
   * as clients and OAuth (RFC 6749, section 3.1) expect.
   */
  strictQuery: boolean
}

/**
 * required: every security requirement names bearerAuth; checked: the bearer is optional, but one that is sent must
 * be good (`x-optional-bearer: { checked: true }`); ignored: optional, and a bad one is as good as none; none: no
 * requirement names bearerAuth.
 */
export type BearerPolicy = 'required' | 'checked' | 'ignored' | 'none'

export function getBearerPolicy(security: string[][], optionalBearer: unknown): BearerPolicy {
  if (!security.some((requirement) => requirement.includes('bearerAuth'))) return 'none'
  if (security.every((requirement) => requirement.includes('bearerAuth'))) return 'required'
  const checked = typeof optionalBearer === 'object' && optionalBearer !== null && 'checked' in optionalBearer
  return checked && optionalBearer.checked === true ? 'checked' : 'ignored'
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const

export function loadDocument(name: DocumentName): Record<string, unknown> {
  // The compiled server carries both documents parsed at build time (scripts/build-server.ts).
  if (BUILD_TIME) return BUILD_TIME.documents[name]
  return parse(readFileSync(new URL(FILES[name], import.meta.url), 'utf8')) as Record<string, unknown>
}

function createAjv(): Ajv2020 {
  // `discriminator`: a oneOf that names its tag (the scenario variants) reports the errors of the variant the tag
  // picks, not of every variant.
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: false, discriminator: true })
  // A CommonJS module seen from ESM: its default export is the module object, whose `default` is the plugin.
  addFormats.default(ajv)
  return ajv
}

function parametersSchema(
  parameters: ParameterObject[],
  where: 'query' | 'path',
  document: DocumentName,
  strict = false,
): object {
  const picked = parameters.filter((parameter) => parameter.in === where)
  return {
    type: 'object',
    ...(strict && { additionalProperties: false }),
    properties: Object.fromEntries(
      picked.map((parameter) => [parameter.name, inDocument(parameter.schema, document)]),
    ),
    required: picked.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  }
}

/** A schema lifted out of its document, its local `$ref`s (`#/components/...`) pointing back into it. */
function inDocument(schema: unknown, document: DocumentName): unknown {
  if (Array.isArray(schema)) return schema.map((item) => inDocument(item, document))
  if (typeof schema !== 'object' || schema === null) return schema
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === '$ref' && typeof value === 'string' && value.startsWith('#/')
        ? `${document}${value}`
        : inDocument(value, document),
    ]),
  )
}

/** The documents and their routes, each document read and compiled at its first use and kept by this object. */
export interface CompiledDocuments {
  /** The document itself, as read (GET /__mock/docs/{document}.json answers it); never changed by a reader. */
  document(name: DocumentName): Record<string, unknown>
  /** Every operation of a document as a route, in document order (a fresh array of the same routes). */
  routes(name: DocumentName): Route[]
}

/**
 * Made once by the composition root (or handed in by a caller that makes many servers): routes are immutable, and
 * compiling the validators is the costliest part of creating an app.
 */
export function createCompiledDocuments(): CompiledDocuments {
  const read = new Map<DocumentName, Record<string, unknown>>()
  const compiled = new Map<DocumentName, readonly Route[]>()
  const documents: CompiledDocuments = {
    document(name) {
      let document = read.get(name)
      if (!document) {
        document = loadDocument(name)
        read.set(name, document)
      }
      return document
    },
    routes(name) {
      let routes = compiled.get(name)
      if (!routes) {
        routes = compileRoutes(name, documents.document(name))
        compiled.set(name, routes)
      }
      return [...routes]
    },
  }
  return documents
}

/** Every operation of a document as a route, compiled afresh (suites that list them; a server has its own). */
export function createRoutes(name: DocumentName): Route[] {
  return compileRoutes(name, loadDocument(name))
}

function compileRoutes(name: DocumentName, document: Record<string, unknown>): Route[] {
  // The validators are compiled at the first call of their operation, not at start: a start compiles none, and a
  // run that never calls an operation never pays for its schemas (docs/decisions/013-mock-server-speed.md).
  let ajv: Ajv2020 | undefined
  const compile = (schema: object): ValidateFunction =>
    lazyValidator(() => {
      if (!ajv) {
        ajv = createAjv()
        ajv.addSchema(withoutDiscriminatorMappings(document) as object, name)
      }
      return ajv.compile(schema)
    })
  const paths = document.paths as Record<string, Record<string, unknown>>
  const rootSecurity = (document.security as Record<string, unknown>[] | undefined) ?? []
  const routes: Route[] = []
  for (const [template, item] of Object.entries(paths)) {
    const pathNames = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!)
    const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')
    const pattern = new RegExp(`^${source}$`)
    for (const method of METHODS) {
      const operation = item[method] as Record<string, unknown> | undefined
      if (!operation) continue
      const parameters = [
        ...((item.parameters as ParameterObject[] | undefined) ?? []),
        ...((operation.parameters as ParameterObject[]) ?? []),
      ]
      const content = (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content
      const bodyType = content ? Object.keys(content)[0] : undefined
      const pointer = `/paths/${template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/requestBody/content/${bodyType?.replace(/\//g, '~1')}/schema`
      const security = ((operation.security as Record<string, unknown>[] | undefined) ?? rootSecurity).map(
        (requirement) => Object.keys(requirement),
      )
      /** The /__mock control surface: served by the mock only, and strict about its query (Route.strictQuery). */
      const control = template.startsWith('/__mock/')
      routes.push({
        document: name,
        operationId: operation.operationId as string,
        method: method.toUpperCase(),
        template,
        pattern,
        pathNames,
        ...(bodyType && { bodyType, validateBody: compile({ $ref: `${name}#${pointer}` }) }),
        validateQuery: compile(parametersSchema(parameters, 'query', name, control)),
        validatePath: compile(parametersSchema(parameters, 'path', name)),
        security,
        bearer: getBearerPolicy(security, operation['x-optional-bearer']),
        maxBodyBytes:
          typeof operation['x-max-body-bytes'] === 'number' ? operation['x-max-body-bytes'] : MAX_BODY_BYTES,
        cors: operation['x-cors'] === true,
        strictQuery: control,
        mockOnly:
          control ||
          ((operation.tags as string[] | undefined) ?? []).some(
            (tag) => tag === 'sinks' || tag === 'identity-provider',
          ),
      })
    }
  }
  return routes
}

/** A validator compiled by its first call; its `errors` are those of its latest call, as Ajv's own. */
function lazyValidator(make: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined
  const validate = ((data: unknown) => {
    compiled ??= make()
    const valid = compiled(data)
    validate.errors = compiled.errors
    return valid
  }) as ValidateFunction
  validate.errors = null
  return validate
}

/**
 * The document without `discriminator.mapping`: Ajv reads each variant's `const`/`enum` of the tag itself and refuses
 * a mapping, which the type generator needs to name a variant's tag values.
 */
function withoutDiscriminatorMappings(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDiscriminatorMappings)
  if (typeof node !== 'object' || node === null) return node
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      key === 'discriminator' && typeof value === 'object' && value !== null
        ? Object.fromEntries(Object.entries(value).filter(([name]) => name !== 'mapping'))
        : withoutDiscriminatorMappings(value),
    ]),
  )
}

/** Turns Ajv's errors into `{ field: reason }`, one reason a field, readable by a person. */
export function describeErrors(errors: ErrorObject[] | null | undefined): Record<string, string> {
  // No prototype, and own keys only: a field named `__proto__`, `constructor` or `toString` is named like any other.
  const fields = Object.create(null) as Record<string, string>
  for (const error of closestBranch(errors ?? [])) {
    const { field, reason } = describeError(error)
    if (!Object.hasOwn(fields, field) && reason) fields[field] = reason
  }
  return fields
}

function describeError(error: ErrorObject): { field: string; reason: string | null } {
  const at = error.instancePath.split('/').filter(Boolean).join('.')
  const params = error.params as Record<string, unknown>
  switch (error.keyword) {
    case 'required':
      return { field: join(at, String(params.missingProperty)), reason: 'This field is required.' }
    case 'additionalProperties':
      return { field: join(at, String(params.additionalProperty)), reason: 'This field is not allowed.' }
    case 'minLength':
      return {
        field: at || 'body',
        reason:
          params.limit === 1
            ? 'This field may not be empty.'
            : `Use at least ${String(params.limit)} characters.`,
      }
    case 'maxLength':
      return { field: at || 'body', reason: `Use at most ${String(params.limit)} characters.` }
    case 'format':
      return {
        field: at || 'body',
        reason:
          params.format === 'email'
            ? 'Enter a valid e-mail address.'
            : `Must be a valid ${String(params.format)}.`,
      }
    case 'type':
      return { field: at || 'body', reason: `Must be of type ${String(params.type)}.` }
    case 'enum':
      return {
        field: at || 'body',
        reason: `Must be one of: ${(params.allowedValues as unknown[]).join(', ')}.`,
      }
    case 'pattern':
      return {
        field: at || 'body',
        reason: at.endsWith('code') ? 'Enter the 6-digit code.' : 'Has an invalid format.',
      }
    case 'discriminator':
      return {
        field: join(at, String(params.tag)),
        reason:
          params.tagValue === undefined
            ? 'This field is required.'
            : `Unknown value ${JSON.stringify(params.tagValue)}.`,
      }
    case 'minProperties':
      return { field: at || 'body', reason: 'Send at least one field.' }
    case 'oneOf':
    case 'anyOf':
    case 'if':
      return { field: at || 'body', reason: null }
    default:
      return { field: at || 'body', reason: error.message ?? 'Is invalid.' }
  }
}

/**
 * For a oneOf, only the errors of the branch that came closest (fewest errors) make sense to a person.
 * Ajv reports the branches in order; an error inside a $ref names no branch, so it belongs to the
 * branch reported last before it.
 */
function closestBranch(errors: ErrorObject[]): ErrorObject[] {
  if (!errors.some((error) => error.keyword === 'oneOf')) return errors
  const branches = new Map<string, ErrorObject[]>()
  let current = '0'
  for (const error of errors) {
    if (error.keyword === 'oneOf') continue
    current = /\/oneOf\/(\d+)\//.exec(error.schemaPath)?.[1] ?? current
    branches.set(current, [...(branches.get(current) ?? []), error])
  }
  return [...branches.values()].sort((a, b) => a.length - b.length)[0] ?? errors
}

function join(base: string, name: string): string {
  return base ? `${base}.${name}` : name
}
