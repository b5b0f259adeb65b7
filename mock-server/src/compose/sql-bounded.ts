// The memory stores' caps as bounds on a table (docs/decisions/022-openid-provider.md): what has expired goes, and
// so does every row `max` or more writes older than the newest, so no caller grows the shared database without
// bound. Counted by `seq`, which the index walks in a few rows (counting the table would read all of it). A bound,
// not a rule: it runs after the write it follows, and a row taken meanwhile only leaves the table smaller.
import type { SqlQueryable } from '../shared/sql.ts'

/**
 * @example
 * const [{ seq }] = await sql.query(`INSERT INTO idp_codes ... RETURNING seq`)
 * await keepWithin(sql, 'idp_codes', IDP_MAX_ENTRIES, seq, clock.now())
 */
export async function keepWithin(
  sql: SqlQueryable,
  table: string,
  max: number,
  newest: number | string,
  now?: number,
): Promise<void> {
  const oldest = BigInt(newest) - BigInt(max)
  if (now === undefined) await sql.query(`DELETE FROM ${table} WHERE seq <= $1`, [oldest.toString()])
  else await sql.query(`DELETE FROM ${table} WHERE seq <= $1 OR expires_at <= $2`, [oldest.toString(), now])
}
