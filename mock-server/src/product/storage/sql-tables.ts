// How each product record maps to its table (product/storage/migrations.ts): field, column, and whether the
// column is JSON. The SQL store writes its SELECT lists and INSERTs from here, so a field is named once.
import { qualified } from '../../shared/sql.ts'
import type { CollectionName } from './records.ts'

interface Table {
  name: string
  /** [record field, column] pairs, in the record's order. */
  columns: readonly (readonly [string, string])[]
  json?: readonly string[]
}

export const TABLES: { [K in CollectionName]: Table } = {
  users: {
    name: 'users',
    columns: [
      ['id', 'id'],
      ['email', 'email'],
      ['name', 'name'],
      ['passwordHash', 'password_hash'],
      ['verified', 'verified'],
      ['createdAt', 'created_at'],
    ],
  },
  sessions: {
    name: 'sessions',
    columns: [
      ['id', 'id'],
      ['userId', 'user_id'],
      ['cookieHash', 'cookie_hash'],
      ['serviceTokenHash', 'service_token_hash'],
      ['createdAt', 'created_at'],
      ['expiresAt', 'expires_at'],
      ['revokedAt', 'revoked_at'],
      ['revokedReason', 'revoked_reason'],
    ],
  },
  refreshTokens: {
    name: 'refresh_tokens',
    columns: [
      ['id', 'id'],
      ['sessionId', 'session_id'],
      ['hash', 'hash'],
      ['createdAt', 'created_at'],
      ['retiredAt', 'retired_at'],
      ['childId', 'child_id'],
      ['graceBox', 'grace_box'],
    ],
  },
  codes: {
    name: 'codes',
    columns: [
      ['id', 'id'],
      ['email', 'email'],
      ['purpose', 'purpose'],
      ['hash', 'hash'],
      ['sentAt', 'sent_at'],
      ['expiresAt', 'expires_at'],
      ['attempts', 'attempts'],
      ['usedAt', 'used_at'],
      ['burned', 'burned'],
      ['supersededAt', 'superseded_at'],
      ['signup', 'signup'],
    ],
    json: ['signup'],
  },
  resetTokens: {
    name: 'reset_tokens',
    columns: [
      ['id', 'id'],
      ['userId', 'user_id'],
      ['hash', 'hash'],
      ['expiresAt', 'expires_at'],
      ['usedAt', 'used_at'],
    ],
  },
  steps: {
    name: 'steps',
    columns: [
      ['id', 'id'],
      ['userId', 'user_id'],
      ['position', 'position'],
      ['title', 'title'],
      ['description', 'description'],
      ['status', 'status'],
      ['scheduled_at', 'scheduled_at'],
    ],
  },
}

/** `col AS "field", ...`: rows come back as records. */
export function selectList(name: CollectionName): string {
  return TABLES[name].columns.map(([field, column]) => `${column} AS "${field}"`).join(', ')
}

/** `alias.col AS "alias.field", ...` for a JOIN: each record's fields come back under its alias. */
export function joinedSelectList(name: CollectionName, alias: string): string {
  return TABLES[name].columns.map(([field, column]) => `${alias}.${column} AS "${alias}.${field}"`).join(', ')
}

/** The record under `alias` in a joined row; null when a LEFT JOIN found none (its id is null). */
export function joinedRecord<T>(row: Record<string, unknown>, name: CollectionName, alias: string): T | null {
  if (row[`${alias}.id`] === null || row[`${alias}.id`] === undefined) return null
  return Object.fromEntries(TABLES[name].columns.map(([field]) => [field, row[`${alias}.${field}`]])) as T
}

/** An INSERT of `records` (one statement, numbered parameters); an empty list inserts nothing. */
export function insertOf(
  name: CollectionName,
  records: readonly object[],
  schema?: string,
): { text: string; params: unknown[] } | null {
  if (records.length === 0) return null
  const table = TABLES[name]
  const params: unknown[] = []
  const rows = records.map((record) => {
    const values = table.columns.map(([field]) => {
      const value = (record as Record<string, unknown>)[field]
      const json = table.json?.includes(field)
      params.push(value)
      return json ? `$${params.length}::jsonb` : `$${params.length}`
    })
    return `(${values.join(', ')})`
  })
  const columns = table.columns.map(([, column]) => column).join(', ')
  const into = qualified(table.name, schema)
  return { text: `INSERT INTO ${into} (${columns}) VALUES ${rows.join(', ')}`, params }
}

/** `SET col = $n, ...` for the fields of `patch` (named in TABLES, so no caller text reaches the SQL). */
export function setList(
  name: CollectionName,
  patch: object,
  firstParam: number,
): { text: string; params: unknown[] } {
  const columns = new Map(TABLES[name].columns)
  const params: unknown[] = []
  const sets = Object.entries(patch)
    .filter(([, value]) => value !== undefined)
    .map(([field, value]) => {
      const column = columns.get(field)
      if (!column) throw new Error(`Failed to update ${name}: no column for ${field}.`)
      params.push(value)
      return `${column} = $${firstParam + params.length - 1}`
    })
  return { text: sets.join(', '), params }
}
