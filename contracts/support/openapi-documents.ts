/**
 * The two OpenAPI documents as plain data: refs, operation matching, documented statuses.
 * Pure apart from reading the two files in `loadProjectDocuments`; must not import Ajv or HTTP.
 */
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'

export type DocumentName = 'openapi' | 'control'

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const
export type HttpMethod = (typeof HTTP_METHODS)[number]

export interface HeaderObject {
  required?: boolean
  schema?: unknown
}
export interface ResponseObject {
  description?: string
  headers?: Record<string, HeaderObject | RefObject>
  content?: Record<string, { schema?: unknown }>
}
export interface RefObject {
  $ref: string
}
export interface OperationObject {
  operationId?: string
  responses?: Record<string, ResponseObject | RefObject>
}
export type PathItem = Partial<Record<HttpMethod, OperationObject>>
export interface OpenApiDocument {
  paths?: Record<string, PathItem>
  components?: Record<string, unknown>
  [key: string]: unknown
}

export interface LoadedDocument {
  /** Also the `$id` the whole document gets in Ajv, so `openapi#/components/...` refers into it. */
  name: DocumentName
  /** The file, relative to the repository root, for messages. */
  file: string
  doc: OpenApiDocument
}

export interface OperationMatch {
  operationId: string
  pathTemplate: string
}

/** One documented response: an operation and one of its status keys (`200`, `default`, `5XX`). */
export interface DocumentedPair {
  document: DocumentName
  operationId: string
  method: string
  path: string
  status: string
}

const PROJECT_DOCUMENTS = [
  { name: 'openapi', file: 'api/openapi.yaml' },
  { name: 'control', file: 'api/control.openapi.yaml' },
] as const

/** Reads and parses api/openapi.yaml and api/control.openapi.yaml (paths relative to this file, not the cwd). */
export function loadProjectDocuments(): LoadedDocument[] {
  return PROJECT_DOCUMENTS.map(({ name, file }) => {
    const url = new URL(`../../${file}`, import.meta.url)
    try {
      return { name, file, doc: parse(readFileSync(url, 'utf8')) as OpenApiDocument }
    } catch (cause) {
      throw new Error(`Failed to load ${file}: ${(cause as Error).message}.`, { cause })
    }
  })
}

/** `/api/process/steps/{id}` → a regular expression matching one concrete path. */
function templateToRegExp(template: string): RegExp {
  const parts = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
  return new RegExp(`^${parts.join('')}$`)
}

/**
 * The decoded values of a template's `{name}` segments in a path; none when the path does not fit.
 * @example readPathParameters('/api/process/steps/{id}', '/api/process/steps/s%201') // { id: 's 1' }
 */
export function readPathParameters(template: string, path: string): Record<string, string> {
  const names = [...template.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]!)
  const values = templateToRegExp(template).exec(path)?.slice(1) ?? []
  const decode = (value: string) => {
    try {
      return decodeURIComponent(value)
    } catch {
      return value
    }
  }
  return Object.fromEntries(
    names.flatMap((name, i) => (values[i] === undefined ? [] : [[name, decode(values[i])]])),
  )
}

/** The path part of a request target: no origin, no query string, no fragment. */
export function normalizeRequestPath(target: string): string {
  const withoutOrigin = /^[a-z][a-z0-9+.-]*:\/\//i.test(target) ? new URL(target).pathname : target
  return withoutOrigin.replace(/[?#].*$/, '')
}

/**
 * The operation a request reaches, or null. Concrete paths win over templated ones (OpenAPI 3.1,
 * "Paths Object"), then the template with fewer parameters.
 * @example findOperation(doc, 'PATCH', '/api/process/steps/s1?x=1') // { operationId: 'updateProcessStep', pathTemplate: '/api/process/steps/{id}' }
 */
export function findOperation(doc: OpenApiDocument, method: string, path: string): OperationMatch | null {
  const concrete = normalizeRequestPath(path)
  const verb = method.toLowerCase() as HttpMethod
  const candidates = Object.entries(doc.paths ?? {})
    .filter(([template, item]) => item[verb]?.operationId && templateToRegExp(template).test(concrete))
    .sort(([a], [b]) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
  const [best] = candidates
  if (!best) return null
  return { operationId: best[1][verb]!.operationId!, pathTemplate: best[0] }
}

/** `a/b~c` → `a~1b~0c` (RFC 6901). */
export function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1')
}

function readPointer(doc: OpenApiDocument, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, token) => (node as Record<string, unknown> | undefined)?.[token], doc)
}

/**
 * Follows local `$ref`s (`#/components/responses/Fault`) until a plain object: components/responses and
 * components/headers are not schemas, so Ajv cannot resolve them for us. Returns the object and its JSON pointer.
 */
export function resolveLocalRef<T>(
  doc: OpenApiDocument,
  node: T | RefObject,
  pointer: string,
): { value: T; pointer: string } {
  let current: unknown = node
  let at = pointer
  for (let hops = 0; hops < 32; hops += 1) {
    const ref = (current as Partial<RefObject> | undefined)?.$ref
    if (typeof ref !== 'string') return { value: current as T, pointer: at }
    if (!ref.startsWith('#/'))
      throw new Error(`Failed to resolve ${ref}: only local references are supported.`)
    at = ref.slice(1)
    current = readPointer(doc, at)
    if (current === undefined) throw new Error(`Failed to resolve ${ref}: nothing at that pointer.`)
  }
  throw new Error(`Failed to resolve the reference at ${pointer}: the chain is too long or circular.`)
}

/** The status key a response is checked against: the exact status, else its range (`5XX`), else `default`. */
export function pickDocumentedStatus(responses: Record<string, unknown>, status: number): string | null {
  const keys = Object.keys(responses)
  const exact = String(status)
  const range = `${exact[0]}XX`
  return (
    keys.find((k) => k === exact) ??
    keys.find((k) => k.toUpperCase() === range) ??
    keys.find((k) => k === 'default') ??
    null
  )
}

/** Every (document, operationId, method, path, status) of the documents, in document order. */
export function listPairs(documents: LoadedDocument[]): DocumentedPair[] {
  return documents.flatMap(({ name, doc }) =>
    Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
      HTTP_METHODS.flatMap((method) => {
        const operation = item[method]
        if (!operation?.operationId) return []
        return Object.keys(operation.responses ?? {}).map((status) => ({
          document: name,
          operationId: operation.operationId!,
          method: method.toUpperCase(),
          path,
          status,
        }))
      }),
    ),
  )
}
