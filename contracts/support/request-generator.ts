/**
 * Requests generated from openapi.yaml, valid and invalid, for contracts/pipeline/generated-input.contract.test.ts.
 * Pure: no network, no clock. Every choice comes from a seeded PRNG, so a seed replays the same requests.
 * Most valid requests are then broken in one way (see MUTATIONS).
 * Longer than the usual module: the schema walker and the mutation table belong together.
 */
import { createRequire } from 'node:module'
import {
  loadProjectDocuments,
  resolveLocalRef,
  type OpenApiDocument,
} from '#contracts/support/openapi-documents.ts'
import { TARGET_PROXIED } from '#contracts/support/target.ts'

export type Rng = () => number

/** mulberry32: a small, fast 32-bit PRNG; good enough to spread test input, not for secrets. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)]!
const chance = (rng: Rng, p: number) => rng() < p
const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1))

type Schema = Record<string, unknown>

interface Parameter {
  name: string
  in: 'path' | 'query' | 'header' | 'cookie'
  required?: boolean
  schema: Schema
}

export interface GeneratedOperation {
  operationId: string
  method: string
  template: string
  parameters: Parameter[]
  bodyType?: string
  bodySchema?: Schema
  /** 'required' (bearer only), 'optional' (bearer or anonymous), 'none'. */
  bearer: 'required' | 'optional' | 'none'
  cookie: boolean
}

/** Live values the generator may draw on, so some valid requests reach the operations' success paths. */
export interface RequestPool {
  emails: readonly string[]
  passwords: readonly string[]
  accessToken: string
  refreshTokens: readonly string[]
  cookie: string
  /** Ids for path parameters named `id` (process steps, builds). */
  ids: readonly string[]
  /** Codes mailed to the pool's addresses and still unused. */
  codes: readonly string[]
  /** An external sign-in code the identity provider handed back, its state and the browser's `sso` cookie, unused. */
  external?: { code: string; state: string; cookie: string }
}

export interface GeneratedRequest {
  operationId: string
  method: string
  /** Path and query string. */
  url: string
  headers: Record<string, string>
  body?: string | Uint8Array<ArrayBuffer>
  /** What was done to the valid request ('valid' when nothing), for messages and for excluding a class. */
  mutation: string
}

/** Every operation of openapi.yaml, in document order. */
export function listOperations(doc: OpenApiDocument = loadProductDocument()): GeneratedOperation[] {
  const operations: GeneratedOperation[] = []
  for (const [template, item] of Object.entries(doc.paths ?? {})) {
    for (const [method, raw] of Object.entries(item as Record<string, Schema>)) {
      if (!raw?.operationId) continue
      const content = (raw.requestBody as { content?: Record<string, { schema: Schema }> } | undefined)
        ?.content
      const bodyType = content ? Object.keys(content)[0] : undefined
      const security = ((raw.security as Schema[] | undefined) ?? []).map((r) => Object.keys(r))
      const hasBearer = security.some((r) => r.includes('bearerAuth'))
      operations.push({
        operationId: raw.operationId as string,
        method: method.toUpperCase(),
        template,
        parameters: (raw.parameters as Parameter[] | undefined) ?? [],
        ...(bodyType && { bodyType, bodySchema: content![bodyType]!.schema }),
        bearer: !hasBearer
          ? 'none'
          : security.every((r) => r.includes('bearerAuth'))
            ? 'required'
            : 'optional',
        cookie: security.some((r) => r.includes('sessionCookie')),
      })
    }
  }
  return operations
}

function loadProductDocument(): OpenApiDocument {
  return loadProjectDocuments().find((d) => d.name === 'openapi')!.doc
}

// --- values ---------------------------------------------------------------------------------------

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'
function word(rng: Rng, length: number): string {
  let out = ''
  for (let i = 0; i < length; i += 1) out += LETTERS[Math.floor(rng() * LETTERS.length)]
  return out
}

/** Strings that have broken parsers, validators, loggers and header writers. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83dy',
  '\u202eevil\u202c',
  '\u200b\u200c\u200d',
  '\u2028\u2029',
  '\ufeff',
  '\uffff',
  '\u0085',
  '\u007f',
  '😀👩‍👩‍👧‍👦',
  'e\u0301\u0301\u0301',
  'ＡＤＡ＠ｅｘａｍｐｌｅ．ｃｏｍ',
  '𝕒𝕕𝕒',
  'İı',
  'ß',
  '/%C4%80',
  '%00',
  '%E0%A4%A',
  '\\',
  '//evil.example',
  '/\\evil.example',
  '/.//evil.example',
  'javascript:alert(1)',
  '../../../etc/passwd',
  "' OR '1'='1",
  '${jndi:ldap://x}',
  '{{7*7}}',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  'toString',
  '\r\nSet-Cookie: x=1',
  '\t',
  'ada@example.com\u0000',
  'ADA@EXAMPLE.COM',
  ' ada@example.com ',
  'ädä@exämple.test',
  'a@b',
  '@example.test',
  'a@example..test',
]

const ODD_KEYS = [
  '__proto__',
  'constructor',
  'toString',
  'prototype',
  'x',
  '',
  ' ',
  '\u0000',
  '😀',
  'a.b',
  '$ref',
]

/** A value of every JSON type but the schema's own. */
function wrongType(rng: Rng, schema: Schema): unknown {
  const types = [].concat((schema.type as never) ?? []) as string[]
  const candidates: unknown[] = [
    42,
    -1,
    1.5,
    1e308,
    true,
    null,
    [],
    ['a'],
    {},
    { a: 1 },
    'a string',
    String(Number.MAX_SAFE_INTEGER + 2),
  ]
  const typeOf = (v: unknown) =>
    v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v
  return pick(
    rng,
    candidates.filter(
      (v) => !types.includes(typeOf(v)) && !(types.includes('number') && typeof v === 'number'),
    ),
  )
}

function stringFor(rng: Rng, name: string, schema: Schema, pool: RequestPool): string {
  if (schema.format === 'email' || name === 'email')
    return chance(rng, 0.6) ? pick(rng, pool.emails) : `${word(rng, 8).toLowerCase()}@example.test`
  if (schema.format === 'date-time')
    return new Date(Date.UTC(2026, int(rng, 0, 11), int(rng, 1, 28))).toISOString()
  if (name === 'password' || name === 'current_password')
    return chance(rng, 0.6) ? pick(rng, pool.passwords) : `${word(rng, int(rng, 8, 40))}`
  if (name === 'refresh_token') return chance(rng, 0.5) ? pick(rng, pool.refreshTokens) : word(rng, 43)
  if (name === 'id' && pool.ids.length > 0 && chance(rng, 0.6)) return pick(rng, pool.ids)
  if (schema.pattern === '^[0-9]{6}$')
    return pool.codes.length > 0 && chance(rng, 0.5)
      ? pick(rng, pool.codes)
      : String(int(rng, 0, 999_999)).padStart(6, '0')
  if (typeof schema.pattern === 'string') return matching(rng, schema)
  const min = (schema.minLength as number | undefined) ?? 1
  const max = Math.min((schema.maxLength as number | undefined) ?? 64, min + 48)
  return word(rng, int(rng, min, Math.max(min, max)))
}

// randexp's types declare an ES default export, but at runtime `module.exports` is the class itself.
const RandExp: typeof import('randexp').default = createRequire(import.meta.url)('randexp')

/**
 * A string the pattern matches, within `schema`'s length limits.
 * randexp skips lookaheads, so callers that need validity check the value with Ajv.
 */
function matching(rng: Rng, schema: Schema): string {
  const min = (schema.minLength as number | undefined) ?? 0
  const max = (schema.maxLength as number | undefined) ?? Infinity
  const generator = new RandExp(schema.pattern as string)
  // An open repetition (`+`, `*`) reaches up to the longest length the schema allows, within reason.
  generator.max = Math.max(12, Math.min(Number.isFinite(max) ? max : 64, 256))
  generator.randInt = (from: number, to: number) => int(rng, from, to)
  let value = generator.gen()
  for (let tries = 0; tries < 50 && (value.length < min || value.length > max); tries += 1)
    value = generator.gen()
  return value
}

/**
 * A value valid against `schema`, as far as this walker reads JSON Schema (enough for both documents).
 * It ignores lookaheads and `not`, so callers that need validity check with Ajv (as conformance.contract.test.ts does).
 */
export function validValue(
  rng: Rng,
  doc: OpenApiDocument,
  node: Schema,
  name: string,
  pool: RequestPool,
): unknown {
  const schema = resolveLocalRef<Schema>(doc, node, '#').value
  if ('const' in schema) return schema.const
  if (Array.isArray(schema.enum)) return pick(rng, schema.enum)
  const choices = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined
  if (Array.isArray(choices)) return validValue(rng, doc, pick(rng, choices), name, pool)
  if (Array.isArray(schema.allOf)) {
    const parts = (schema.allOf as Schema[]).map((part) => resolveLocalRef<Schema>(doc, part, '#').value)
    const { allOf: _parts, ...rest } = schema
    return validValue(rng, doc, mergeObjectSchemas([rest, ...parts]), name, pool)
  }
  const types = [].concat((schema.type as never) ?? []) as string[]
  const type = types.length > 0 ? pick(rng, types) : 'string'
  switch (type) {
    case 'null':
      return null
    case 'boolean':
      return chance(rng, 0.5)
    case 'integer':
      return int(
        rng,
        (schema.minimum as number | undefined) ?? 0,
        Math.min((schema.maximum as number) ?? 1000, 1000),
      )
    case 'array': {
      // As few items as the schema allows (a registration's redirect_uris needs one).
      const items = schema.items as Schema | undefined
      const count = items ? ((schema.minItems as number | undefined) ?? 0) : 0
      return Array.from({ length: count }, () => validValue(rng, doc, items!, name, pool))
    }
    case 'object': {
      const properties = (schema.properties as Record<string, Schema> | undefined) ?? {}
      const required = (schema.required as string[] | undefined) ?? []
      const out: Record<string, unknown> = {}
      for (const [key, value] of Object.entries(properties)) {
        if (required.includes(key) || chance(rng, 0.5)) out[key] = validValue(rng, doc, value, key, pool)
      }
      if (Object.keys(out).length === 0 && (schema.minProperties as number | undefined)) {
        const [key, value] = pick(rng, Object.entries(properties))
        out[key] = validValue(rng, doc, value, key, pool)
      }
      const dependents = (schema.dependentRequired as Record<string, string[]> | undefined) ?? {}
      for (const [key, needed] of Object.entries(dependents)) {
        if (!(key in out)) continue
        for (const other of needed) out[other] ??= validValue(rng, doc, properties[other] ?? {}, other, pool)
      }
      return out
    }
    default:
      return stringFor(rng, name, schema, pool)
  }
}

/** The object schemas of an allOf as one: their properties and required fields together. */
function mergeObjectSchemas(parts: Schema[]): Schema {
  return parts.reduce<Schema>(
    (merged, part) => ({
      ...merged,
      ...part,
      properties: { ...(merged.properties as object), ...(part.properties as object) },
      required: [...((merged.required as string[]) ?? []), ...((part.required as string[]) ?? [])],
    }),
    { type: 'object' },
  )
}

/** The bytes of a body in its media type: JSON, a form, or the string itself (text, binary). */
export function encodeBody(mediaType: string, value: unknown): string {
  if (/[/+]json$/i.test(mediaType)) return JSON.stringify(value) ?? 'undefined'
  if (mediaType === 'application/x-www-form-urlencoded' && isRecord(value))
    return new URLSearchParams(Object.entries(value).map(([k, v]) => [k, String(v)])).toString()
  return typeof value === 'string' ? value : JSON.stringify(value)
}

// --- mutations ------------------------------------------------------------------------------------

type Draft = {
  method: string
  path: Record<string, string>
  query: Record<string, string>
  headers: Record<string, string>
  body: unknown
  /** Set when a mutation wrote the bytes itself (bad JSON, raw bytes). */
  rawBody?: string | Uint8Array<ArrayBuffer>
}

type Mutation = (rng: Rng, draft: Draft, operation: GeneratedOperation, pool: RequestPool) => string | null

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function bodyField(rng: Rng, draft: Draft): string | null {
  return isRecord(draft.body) && Object.keys(draft.body).length > 0
    ? pick(rng, Object.keys(draft.body))
    : null
}

const MUTATIONS: Record<string, Mutation> = {
  'wrong-method': (rng, draft) => {
    draft.method = pick(
      rng,
      ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].filter((method) => method !== draft.method),
    )
    return `wrong-method:${draft.method}`
  },
  'wrong-type': (rng, draft, operation) => {
    if (!operation.bodySchema) return null
    const field = bodyField(rng, draft)
    if (!field || chance(rng, 0.15)) {
      draft.body = wrongType(rng, { type: 'object' })
      return 'wrong-type:body'
    }
    ;(draft.body as Record<string, unknown>)[field] = wrongType(rng, {
      type: typeof (draft.body as never)[field],
    })
    return `wrong-type:${field}`
  },
  'missing-field': (rng, draft) => {
    const field = bodyField(rng, draft)
    if (!field) return null
    delete (draft.body as Record<string, unknown>)[field]
    return `missing-field:${field}`
  },
  'extra-field': (rng, draft) => {
    if (!isRecord(draft.body)) return null
    const key = pick(rng, ODD_KEYS)
    const value = pick(rng, [1, 'x', null, { polluted: true }, ['a'], true])
    // JSON.parse makes an own property even of "__proto__", so the request carries it as written.
    draft.rawBody = JSON.stringify(draft.body)
      .replace(/^\{/, `{${JSON.stringify(key)}:${JSON.stringify(value)},`)
      .replace(/,\}$/, '}')
    return `extra-field:${JSON.stringify(key)}`
  },
  'huge-string': (rng, draft) => {
    const field = bodyField(rng, draft)
    if (!field) return null
    const length = pick(rng, [129, 257, 513, 1025, 5_000, 17_000, 40_000])
    ;(draft.body as Record<string, unknown>)[field] = pick(rng, ['a', 'é', '😀', '0']).repeat(length)
    return `huge-string:${field}:${length}`
  },
  'odd-unicode': (rng, draft) => {
    const field = bodyField(rng, draft)
    if (!field) return null
    const body = draft.body as Record<string, unknown>
    const odd = pick(rng, ODD_STRINGS)
    body[field] = chance(rng, 0.5) ? odd : `${String(body[field])}${odd}`
    return `odd-unicode:${field}`
  },
  'wrong-content-type': (rng, draft, operation) => {
    if (!operation.bodyType) return null
    const type = pick(rng, [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'application/jsonx',
      'application/json-patch+json',
      'json',
      '*/*',
      '',
    ])
    if (type === '') {
      draft.rawBody = new TextEncoder().encode(JSON.stringify(draft.body))
      delete draft.headers['content-type']
    } else draft.headers['content-type'] = type
    return `wrong-content-type:${type || 'none'}`
  },
  'bad-json': (rng, draft, operation) => {
    if (!operation.bodyType) return null
    const text = JSON.stringify(draft.body)
    draft.rawBody = pick(rng, [
      text.slice(0, Math.max(0, text.length - 1)),
      `${text},`,
      text.replace(/"/g, "'"),
      text.replace(/:/, ':NaN,"x":'),
      '',
      'null',
      '[]',
      '"a string"',
      '{',
      '{"a":}',
      '\ufeff' + text,
      '['.repeat(5_000) + ']'.repeat(5_000),
      '{"a":'.repeat(2_000) + '1' + '}'.repeat(2_000),
      new Uint8Array([0xff, 0xfe, 0x00, 0x7b, 0x7d]),
      new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    ])
    return 'bad-json'
  },
  'odd-path': (rng, draft, operation) => {
    const names = Object.keys(draft.path)
    if (names.length === 0) return null
    const name = pick(rng, names)
    const values = [
      '%ZZ',
      '%00',
      '%2F',
      '..',
      '%2e%2e',
      encodeOdd(pick(rng, ODD_STRINGS)),
      'a'.repeat(int(rng, 65, 3000)),
      '%E0%A4%A',
      '%C4%80',
    ]
    const sendable = (value: string) =>
      !refusedByProxy(value) && !climbsAboveRoot(fill(operation.template, { ...draft.path, [name]: value }))
    draft.path[name] = pick(rng, TARGET_PROXIED ? values.filter(sendable) : values)
    return `odd-path:${operation.template}:${name}`
  },
  'odd-query': (rng, draft, operation) => {
    const names = operation.parameters.filter((p) => p.in === 'query').map((p) => p.name)
    const name =
      names.length > 0 && chance(rng, 0.8) ? pick(rng, names) : pick(rng, ['x', 'token', '__proto__'])
    if (chance(rng, 0.2)) {
      delete draft.query[name]
      return `odd-query:missing:${name}`
    }
    draft.query[name] = pick(rng, [...ODD_STRINGS, 'a'.repeat(int(rng, 16, 3000))])
    return `odd-query:${name}`
  },
  'odd-auth': (rng, draft, _operation, pool) => {
    draft.headers.authorization = pick(rng, [
      'Bearer',
      'Bearer ',
      'Bearer not.a.jwt',
      'Bearer a.b.c',
      `Bearer ${pool.accessToken}x`,
      `Bearer ${pool.accessToken} extra`,
      `bearer ${pool.accessToken}`,
      `Basic ${Buffer.from('ada@example.com:analytical-engine-1843').toString('base64')}`,
      `Bearer ${'A'.repeat(8_000)}`,
      `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${pool.accessToken.split('.')[1] ?? ''}.`,
      'Bearer \u00ff\u00fe',
    ])
    return 'odd-auth'
  },
  'odd-cookie': (rng, draft, _operation, pool) => {
    draft.headers.cookie = pick(rng, [
      'sid=',
      'sid=%E0%A4%A',
      `sid=${'x'.repeat(4_000)}`,
      `${pool.cookie}; ${pool.cookie}`,
      `__Host-sid=${pool.cookie.split('=')[1] ?? ''}`,
      'sid=a; sid=b',
      '=; ;;',
      `sid="${pool.cookie.split('=')[1] ?? ''}"`,
    ])
    return 'odd-cookie'
  },
}

export const MUTATION_NAMES = Object.keys(MUTATIONS)

/** Percent-encodes a string; a lone surrogate (which encodeURIComponent refuses) as the bytes of its code unit. */
/**
 * A path a proxy refuses with a 400 of its own before any server sees it: a malformed escape, or NUL. Behind one
 * (CONTRACT_TARGET_PROXIED) such paths would test the proxy, so they are not sent; the other legs send them.
 */
const refusedByProxy = (value: string) => /%00|%(?![0-9A-Fa-f]{2})/.test(value)

/** Whether `path`, decoded as a proxy decodes it, has more `..` segments than segments before them: nginx answers 400. */
export function climbsAboveRoot(path: string): boolean {
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    // a malformed escape is refusedByProxy's case
  }
  let depth = 0
  for (const segment of decoded.split('/')) {
    if (segment === '..') depth -= 1
    else if (segment !== '.' && segment !== '') depth += 1
    if (depth < 0) return true
  }
  return false
}

function encodeOdd(value: string): string {
  try {
    return encodeURIComponent(value) || '%20'
  } catch {
    return '%ED%A0%80'
  }
}

function fill(template: string, path: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const value = path[name] ?? ''
    // odd-path values are written already encoded; valid ones are encoded here
    return /%|^\.\.$/.test(value) ? value : encodeURIComponent(value)
  })
}

/**
 * One request for `operation`: valid with probability `validShare`, else broken by one mutation that applies to it.
 * @example
 * const rng = createRng(42)
 * generateRequest(rng, listOperations()[0]!, pool) // { operationId: 'getSession', method: 'GET', url: '/api/_auth/session', ... }
 */
export function generateRequest(
  rng: Rng,
  operation: GeneratedOperation,
  pool: RequestPool,
  options: { validShare?: number; doc?: OpenApiDocument; exclude?: (mutation: string) => boolean } = {},
): GeneratedRequest {
  const doc = options.doc ?? cachedDocument()
  const draft: Draft = { method: operation.method, path: {}, query: {}, headers: {}, body: undefined }
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue
    if (parameter.in === 'query' && !parameter.required && chance(rng, 0.5)) continue
    const value = validValue(rng, doc, parameter.schema, parameter.name, pool)
    const text = String(value)
    if (parameter.in === 'path') draft.path[parameter.name] = text
    else draft.query[parameter.name] = text
  }
  if (operation.bodySchema) {
    draft.body = validValue(rng, doc, operation.bodySchema, 'body', pool)
    draft.headers['content-type'] = operation.bodyType!
  }
  if (operation.bearer !== 'none' && chance(rng, operation.bearer === 'required' ? 0.85 : 0.4))
    draft.headers.authorization = `Bearer ${pool.accessToken}`
  if (operation.cookie && chance(rng, 0.6)) draft.headers.cookie = pool.cookie
  if (operation.operationId === 'exchangeCallback' && pool.external && chance(rng, 0.5)) {
    draft.body = { code: pool.external.code, state: pool.external.state }
    draft.headers.cookie = pool.external.cookie
  }
  if (operation.operationId === 'deleteSession' && chance(rng, 0.3))
    draft.headers['sec-fetch-site'] = pick(rng, ['cross-site', 'same-site', 'same-origin', 'none'])
  let mutation = 'valid'
  if (!chance(rng, options.validShare ?? 0.25)) {
    for (let tries = 0; tries < 8 && mutation === 'valid'; tries += 1) {
      const name = pick(rng, MUTATION_NAMES)
      const backup = structuredClone({ ...draft, rawBody: undefined })
      const applied = MUTATIONS[name]!(rng, draft, operation, pool)
      if (applied && !options.exclude?.(applied)) mutation = applied
      else Object.assign(draft, backup, { rawBody: undefined })
    }
  }
  const query = new URLSearchParams(draft.query).toString()
  const request: GeneratedRequest = {
    operationId: operation.operationId,
    method: draft.method,
    url: `${fill(operation.template, draft.path)}${query ? `?${query}` : ''}`,
    headers: draft.headers,
    mutation,
  }
  if (operation.bodyType && draft.method !== 'GET') {
    request.body =
      draft.rawBody ?? (draft.body === undefined ? '' : encodeBody(operation.bodyType, draft.body))
  }
  return request
}

let cached: OpenApiDocument | undefined
function cachedDocument(): OpenApiDocument {
  cached ??= loadProductDocument()
  return cached
}
