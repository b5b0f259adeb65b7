/**
 * Checks one HTTP response against both OpenAPI documents. No HTTP here: see api.ts.
 * Ajv holds each whole document under its name as `$id`, so the documents' own refs resolve inside them.
 * Longer than the usual module: the status, header and body checks share one Ajv instance and its cache.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import {
  escapePointerToken as esc,
  findOperation,
  listPairs,
  loadProjectDocuments,
  normalizeRequestPath,
  pickDocumentedStatus,
  readPathParameters,
  resolveLocalRef,
  type DocumentName,
  type DocumentedPair,
  type HeaderObject,
  type HttpMethod,
  type LoadedDocument,
  type OperationMatch,
  type ResponseObject,
} from '#contracts/support/openapi-documents.ts'
import {
  describeSetCookie,
  findCarriedSecret,
  findCookieFaults,
  isOverHttps,
  parseSetCookie,
} from '#contracts/support/safe-answer.ts'

export { findOperation, type DocumentedPair, type DocumentName, type LoadedDocument, type OperationMatch }

// ajv-formats is CommonJS: under NodeNext its default import is `module.exports`, whose `.default` is the plugin.
const addFormats = addFormatsModule.default

export type HeaderValue = string | string[] | number | undefined

export interface ResponseToValidate {
  method: string
  /** The request path; an origin, a query string or a fragment is ignored. */
  path: string
  status: number
  headers: Record<string, HeaderValue>
  /** Parsed for JSON media types, a string for text ones; undefined, null or '' when there is none. */
  body: unknown
  /**
   * The request came over https (its URL, or X-Forwarded-Proto: https), so every cookie must be Secure.
   * Left out, it is read from `path` when that has an origin.
   */
  secure?: boolean
}

export interface ResponseValidation {
  document: DocumentName | null
  operationId: string | null
  /** The status key the response was checked against (`200`, `5XX`), or null when none applies. */
  documentedStatus: string | null
  errors: string[]
}

export interface RequestToValidate {
  method: string
  /** Path and query string. */
  url: string
  headers: Record<string, string>
  /** The bytes as sent; undefined when there are none. */
  body?: string | Uint8Array
}

export interface OpenApiValidator {
  readonly documents: readonly LoadedDocument[]
  /**
   * The ways a request breaks its operation's documented parameters and body. Empty when well formed.
   */
  validateRequest(request: RequestToValidate): string[]
  /** The operation a request reaches in any of the documents, or null. */
  matchOperation(method: string, path: string): (OperationMatch & { document: DocumentName }) | null
  validateResponse(response: ResponseToValidate): ResponseValidation
  listDocumentedPairs(): DocumentedPair[]
  /** The documented status key a status of an operation counts as (`503` → `5XX`), or null. */
  getDocumentedStatus(
    operationId: string,
    status: number | string,
  ): { document: DocumentName; documentedStatus: string } | null
}

const isEmptyBody = (body: unknown) =>
  body === undefined || body === null || body === '' || (body instanceof Uint8Array && body.length === 0)

function formatErrors(where: string, errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => {
    const p = e.params as Record<string, unknown>
    const detail =
      e.keyword === 'additionalProperties'
        ? ` (${String(p.additionalProperty)})`
        : e.keyword === 'enum'
          ? ` (${JSON.stringify(p.allowedValues)})`
          : e.keyword === 'const'
            ? ` (${JSON.stringify(p.allowedValue)})`
            : ''
    return `${where}${e.instancePath}: ${e.message ?? e.keyword}${detail}`
  })
}

/** A header object with this repository's extensions (api/openapi.yaml, "A safe answer"). */
type SafeHeaderObject = HeaderObject & {
  'x-required-when-body-has'?: string
  'x-expires-cookie'?: boolean
}

/** Where a response is in the documents, for messages: `login 200`. */
interface AnswerContext {
  label: string
  overHttps: boolean
  body: unknown
}

interface ParameterObject {
  name: string
  in: string
  required?: boolean
}

/**
 * Whether a text value fits `validate`, as is or as the number it spells.
 * Headers and parameters are text on the wire, but some schemas are integers.
 */
function validatesAsText(validate: ValidateFunction, raw: string): boolean {
  return validate(raw) || (/^-?\d+(\.\d+)?$/.test(raw) && validate(Number(raw)))
}
function lowerCaseKeys(headers: Record<string, HeaderValue>): Record<string, HeaderValue> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
}

function mediaTypeMatches(documented: string, actual: string): boolean {
  const [type, subtype] = documented.toLowerCase().split('/')
  const [actualType, actualSubtype] = actual.split('/')
  return (type === '*' || type === actualType) && (subtype === '*' || subtype === actualSubtype)
}

/**
 * Compiles nothing up front: each schema is compiled on first use and cached. `now` dates a cookie's `Expires`.
 * @example
 * const validator = createOpenApiValidator()
 * validator.validateResponse({ method: 'GET', path: '/api/me', status: 200, headers: { 'cache-control': 'no-store', 'content-type': 'application/json' }, body: { id: 'u1', email: 'a@b.c', name: 'A' } })
 * // { document: 'openapi', operationId: 'getMe', documentedStatus: '200', errors: [] }
 */
export function createOpenApiValidator(
  documents: LoadedDocument[] = loadProjectDocuments(),
  { now = () => Date.now() }: { now?: () => number } = {},
): OpenApiValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  // A whole OpenAPI document is not itself a JSON Schema, so it is not checked against the meta-schema.
  for (const { name, doc } of documents) ajv.addSchema(doc, name, undefined, false)
  const compiled = new Map<string, ValidateFunction>()
  const byName = new Map(documents.map((d) => [d.name, d]))

  function schemaAt(document: DocumentName, pointer: string): ValidateFunction {
    const ref = `${document}#${pointer}`
    let validate = compiled.get(ref)
    if (!validate) {
      try {
        validate = ajv.compile({ $ref: ref })
      } catch (cause) {
        throw new Error(`Failed to compile the schema at ${ref}: ${(cause as Error).message}.`, { cause })
      }
      compiled.set(ref, validate)
    }
    return validate
  }

  function matchOperation(method: string, path: string) {
    for (const { name, doc } of documents) {
      const match = findOperation(doc, method, path)
      if (match) return { ...match, document: name }
    }
    return null
  }

  function checkHeaders(
    loaded: LoadedDocument,
    response: ResponseObject,
    pointer: string,
    headers: Record<string, HeaderValue>,
    answer: AnswerContext,
    errors: string[],
  ) {
    const documented = Object.keys(response.headers ?? {}).map((name) => name.toLowerCase())
    if (headers['set-cookie'] !== undefined && !documented.includes('set-cookie')) {
      const names = [headers['set-cookie']].flat().map((v) => parseSetCookie(String(v)).name)
      errors.push(
        `header Set-Cookie of ${answer.label}: sets ${names.join(', ')}, but the documented response sets no cookie`,
      )
    }
    for (const [name, node] of Object.entries(response.headers ?? {})) {
      if (name.toLowerCase() === 'content-type') continue // ignored by OpenAPI: the media type says it
      const at = `${pointer}/headers/${esc(name)}`
      const { value: header, pointer: headerPointer } = resolveLocalRef<SafeHeaderObject>(
        loaded.doc,
        node,
        at,
      )
      const actual = headers[name.toLowerCase()]
      if (actual === undefined) {
        reportMissing(name, header, answer, errors)
        continue
      }
      if (header.schema === undefined) continue
      const validate = schemaAt(loaded.name, `${headerPointer}/schema`)
      for (const raw of Array.isArray(actual) ? actual : [String(actual)]) {
        if (name.toLowerCase() === 'set-cookie') checkCookie(raw, header, validate, answer, errors)
        else if (!validatesAsText(validate, raw))
          errors.push(...formatErrors(`header ${name} ${JSON.stringify(raw)}`, validate.errors))
      }
    }
  }

  /** A header the answer left out: an error when it is required, or required by what the body holds. */
  function reportMissing(name: string, header: SafeHeaderObject, answer: AnswerContext, errors: string[]) {
    const when = header['x-required-when-body-has']
    const body = answer.body
    const bodyHas = when !== undefined && typeof body === 'object' && body !== null && when in body
    if (!header.required && !bodyHas) return
    if (name.toLowerCase() !== 'set-cookie') {
      errors.push(`header ${name}: required but missing`)
      return
    }
    const must = header['x-expires-cookie']
      ? 'the answer ends a session, so it must expire the session cookie'
      : 'the answer must set its cookie'
    errors.push(`header Set-Cookie of ${answer.label}: required but missing (${must})`)
  }

  /** One Set-Cookie value: what it lacks, in words, else whether it is the documented cookie. Never its value. */
  function checkCookie(
    raw: string,
    header: SafeHeaderObject,
    validate: ValidateFunction,
    answer: AnswerContext,
    errors: string[],
  ) {
    const rule = { overHttps: answer.overHttps, mustExpire: header['x-expires-cookie'] === true, now: now() }
    const faults = findCookieFaults(raw, rule)
    const cookie = `cookie ${parseSetCookie(raw).name} (${describeSetCookie(raw)})`
    if (faults.length > 0)
      errors.push(`header Set-Cookie of ${answer.label}: ${cookie} lacks ${faults.join(', ')}`)
    else if (!validate(raw))
      errors.push(
        `header Set-Cookie of ${answer.label}: ${cookie} is not the documented cookie (its pattern)`,
      )
  }

  /** An answer that carries a token, a code or a cookie must never be stored by a cache. */
  function checkNoStore(headers: Record<string, HeaderValue>, answer: AnswerContext, errors: string[]) {
    const secret = findCarriedSecret(answer.body, headers.location, headers['set-cookie'])
    const cacheControl = [headers['cache-control'] ?? []].flat().join(',')
    const directives = cacheControl.split(',').map((d) => d.trim().toLowerCase())
    if (secret && !directives.includes('no-store'))
      errors.push(
        `header Cache-Control of ${answer.label}: the answer carries ${secret}, so it must say no-store (got ${JSON.stringify(cacheControl)})`,
      )
  }

  function checkBody(
    loaded: LoadedDocument,
    response: ResponseObject,
    pointer: string,
    input: ResponseToValidate,
    headers: Record<string, HeaderValue>,
    errors: string[],
  ) {
    const mediaTypes = Object.keys(response.content ?? {})
    if (mediaTypes.length === 0) {
      if (!isEmptyBody(input.body)) errors.push('body: must be empty (the response documents no content)')
      return
    }
    const contentType = String(headers['content-type'] ?? '')
      .split(';')[0]!
      .trim()
      .toLowerCase()
    const mediaType = mediaTypes.find((m) => mediaTypeMatches(m, contentType))
    if (!mediaType) {
      const got = contentType ? `${contentType} is not documented` : 'missing'
      errors.push(`header Content-Type: ${got} (documented: ${mediaTypes.join(', ')})`)
      return
    }
    if (isEmptyBody(input.body)) {
      errors.push(`body: empty, but ${mediaType} content is documented`)
      return
    }
    if (response.content?.[mediaType]?.schema === undefined) return
    const validate = schemaAt(loaded.name, `${pointer}/content/${esc(mediaType)}/schema`)
    if (!validate(input.body)) errors.push(...formatErrors('body', validate.errors))
  }

  function validateResponse(input: ResponseToValidate): ResponseValidation {
    const path = normalizeRequestPath(input.path)
    const match = matchOperation(input.method, path)
    if (!match) {
      const errors = [`${input.method.toUpperCase()} ${path} is not documented`]
      return { document: null, operationId: null, documentedStatus: null, errors }
    }
    const loaded = byName.get(match.document)!
    const verb = input.method.toLowerCase() as HttpMethod
    const responses = loaded.doc.paths![match.pathTemplate]![verb]!.responses ?? {}
    const headers = lowerCaseKeys(input.headers)
    const errors: string[] = []
    const documentedStatus = pickDocumentedStatus(responses, input.status)
    const result = { document: match.document, operationId: match.operationId, documentedStatus, errors }
    if (documentedStatus === null)
      errors.push(`status ${input.status} is not documented for ${match.operationId}`)
    if (path.startsWith('/api/')) {
      const cacheControl = [headers['cache-control'] ?? []].flat().join(',')
      const directives = cacheControl.split(',').map((d) => d.trim().toLowerCase())
      if (!directives.includes('no-store')) {
        errors.push(
          `header Cache-Control: every /api/* response must carry no-store (got ${JSON.stringify(cacheControl)})`,
        )
      }
    }
    if (documentedStatus === null) return result
    const at = `/paths/${esc(match.pathTemplate)}/${verb}/responses/${esc(documentedStatus)}`
    const { value: response, pointer } = resolveLocalRef<ResponseObject>(
      loaded.doc,
      responses[documentedStatus]!,
      at,
    )
    const answer = {
      label: `${match.operationId} ${documentedStatus}`,
      overHttps: input.secure ?? isOverHttps(input.path, undefined),
      body: input.body,
    }
    checkHeaders(loaded, response, pointer, headers, answer, errors)
    if (!path.startsWith('/api/')) checkNoStore(headers, answer, errors) // every /api/* answer is held to it above
    checkBody(loaded, response, pointer, input, headers, errors)
    return { ...result, errors: [...new Set(errors)] } // oneOf branches repeat the same message
  }

  function validateRequest(request: RequestToValidate): string[] {
    const url = new URL(request.url, 'http://request.invalid')
    const match = matchOperation(request.method, url.pathname)
    if (!match) return [`${request.method.toUpperCase()} ${url.pathname} is not documented`]
    const loaded = byName.get(match.document)!
    const verb = request.method.toLowerCase() as HttpMethod
    const itemPointer = `/paths/${esc(match.pathTemplate)}`
    const item = loaded.doc.paths![match.pathTemplate] as Record<string, unknown>
    const operation = item[verb] as Record<string, unknown>
    const errors: string[] = []
    const pathValues = readPathParameters(match.pathTemplate, url.pathname)
    const parameters = [
      ...((item.parameters as ParameterObject[] | undefined) ?? []).map((p, i) => ({
        ...p,
        pointer: `${itemPointer}/parameters/${i}/schema`,
      })),
      ...((operation.parameters as ParameterObject[] | undefined) ?? []).map((p, i) => ({
        ...p,
        pointer: `${itemPointer}/${verb}/parameters/${i}/schema`,
      })),
    ]
    for (const parameter of parameters) {
      if (parameter.in !== 'path' && parameter.in !== 'query') continue
      const raw = parameter.in === 'path' ? pathValues[parameter.name] : url.searchParams.get(parameter.name)
      if (raw === undefined || raw === null) {
        if (parameter.required) errors.push(`${parameter.in} ${parameter.name}: required`)
        continue
      }
      const validate = schemaAt(loaded.name, parameter.pointer)
      if (!validatesAsText(validate, raw))
        errors.push(...formatErrors(`${parameter.in} ${parameter.name}`, validate.errors))
    }
    const requestBody = operation.requestBody as
      { required?: boolean; content?: Record<string, { schema?: unknown }> } | undefined
    const text = typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body)
    if (!requestBody) {
      if (text !== '') errors.push('body: the operation takes none')
      return errors
    }
    if (text === '' && request.body === undefined) {
      if (requestBody.required) errors.push('body: required')
      return errors
    }
    const contentType = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase()
    const mediaType = Object.keys(requestBody.content ?? {}).find((m) => mediaTypeMatches(m, contentType))
    if (!mediaType) return [...errors, `header Content-Type: ${contentType || 'missing'} is not documented`]
    if (requestBody.content?.[mediaType]?.schema === undefined) return errors
    let value: unknown = text
    if (/[/+]json$/.test(mediaType)) {
      try {
        value = JSON.parse(text)
      } catch {
        return [...errors, 'body: not JSON']
      }
    } else if (mediaType === 'application/x-www-form-urlencoded') {
      value = Object.fromEntries(new URLSearchParams(text))
    }
    const validate = schemaAt(
      loaded.name,
      `${itemPointer}/${verb}/requestBody/content/${esc(mediaType)}/schema`,
    )
    if (!validate(value)) errors.push(...formatErrors('body', validate.errors))
    return errors
  }

  function getDocumentedStatus(operationId: string, status: number | string) {
    const pairs = listPairs(documents).filter((p) => p.operationId === operationId)
    const [first] = pairs
    if (!first) return null
    const keys = Object.fromEntries(pairs.map((p) => [p.status, true]))
    const documentedStatus =
      typeof status === 'number' ? pickDocumentedStatus(keys, status) : status in keys ? status : null
    return documentedStatus === null ? null : { document: first.document, documentedStatus }
  }

  return {
    documents,
    matchOperation,
    validateRequest,
    validateResponse,
    listDocumentedPairs: () => listPairs(documents),
    getDocumentedStatus,
  }
}

// One validator per worker, built on first use. Compiling the schemas once keeps the suite fast.
let projectValidator: OpenApiValidator | undefined
export function getProjectValidator(): OpenApiValidator {
  projectValidator ??= createOpenApiValidator()
  return projectValidator
}

/**
 * Validates a response against the project's documents.
 * @example
 * validateResponse({ method: 'GET', path: '/api/me', status: 503, headers: { 'cache-control': 'no-store', 'content-type': 'application/json' }, body: { error: 'server_error' } })
 * // { document: 'openapi', operationId: 'getMe', documentedStatus: '5XX', errors: [] }
 */
export function validateResponse(response: ResponseToValidate): ResponseValidation {
  return getProjectValidator().validateResponse(response)
}

/**
 * Every documented (document, operationId, method, path, status) of both documents.
 * @example listDocumentedPairs()[0] // { document: 'openapi', operationId: 'getSession', method: 'GET', path: '/api/_auth/session', status: '200' }
 */
export function listDocumentedPairs(): DocumentedPair[] {
  return getProjectValidator().listDocumentedPairs()
}
