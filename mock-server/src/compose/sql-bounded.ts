// The memory stores' caps as bounds on a table (docs/decisions/022-openid-provider.md): what has expired goes, and
// past `max` rows the oldest go, so no caller grows the shared database without bound. A bound, not a rule: it runs
// after the write it follows, and two instances trimming at once only trim twice.
import type { SqlQueryable } from '../shared/sql.ts'

/**
 * @example
 * await keepWithin(sql, 'idp_codes', IDP_MAX_ENTRIES, clock.now())
 */
export async function keepWithin(sql: SqlQueryable, table: string, max: number, now?: number): Promise<void> {
  const expired = now === undefined ? '' : 'expires_at <= $2 OR '
  await sql.query(
    `DELETE FROM ${table} WHERE ${expired}seq <= (SELECT seq FROM ${table} ORDER BY seq DESC OFFSET $1 LIMIT 1)`,
    now === undefined ? [max] : [max, now],
  )
}
