// PostgreSQL's text holds neither U+0000 nor a lone surrogate (no UTF-8 for it), both of which the product
// accepts in names and ids (generated requests found them: contracts/pipeline/generated-input.contract.test.ts).
// Every string goes in escaped, `\` as `\\`, U+0000 as `\0`, a lone surrogate as `\s` and its four hex digits,
// and comes out unescaped: one-to-one, so equality and uniqueness hold as they did in memory.
import type { SqlClient, SqlQueryable } from '../../shared/sql.ts'

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g
const encode = (text: string) =>
  text
    .replace(/\\/g, '\\\\')
    .replace(/\0/g, '\\0')
    .replace(LONE_SURROGATE, (unit) => `\\s${unit.charCodeAt(0).toString(16)}`)
const decode = (text: string) =>
  text.replace(/\\(\\|0|s[0-9a-f]{4})/g, (_, escaped: string) =>
    escaped === '\\' ? '\\' : escaped === '0' ? '\0' : String.fromCharCode(parseInt(escaped.slice(1), 16)),
  )

function deep(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === 'string') return map(value)
  if (Array.isArray(value)) return value.map((item) => deep(item, map))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deep(item, map)]))
  return value
}

function escaping(db: SqlQueryable): SqlQueryable {
  return {
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      deep(
        await db.query(
          text,
          params.map((param) => deep(param, encode)),
        ),
        decode,
      ) as Row[],
    exec: (text) => db.exec(text),
  }
}

/** The client with every string parameter escaped and every string in a row unescaped, transactions included. */
export function withTextEscapes(sql: SqlClient): SqlClient {
  return {
    ...escaping(sql),
    manyConnections: sql.manyConnections,
    transaction: (work) => sql.transaction((tx) => work(escaping(tx))),
    close: () => sql.close(),
  }
}
