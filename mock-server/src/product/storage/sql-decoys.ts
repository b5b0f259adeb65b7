// Decoy codes in the SQL database every instance shares (domain/decoys.ts): wrong codes for an address without a
// code count on its one decoy wherever they land, so spreading them over instances answers as one instance does
// (an address with a code burns after five; its decoy must too). A wrong guess is one upsert, never a read then a
// write. No hash is kept: a decoy matches no code, and the database holds nothing to guess against.
import { qualified, type SqlClient } from '../../shared/sql.ts'
import type { Async } from '../domain/counters.ts'
import type { DecoyCodes } from '../domain/decoys.ts'
import { withTextEscapes } from './sql-text.ts'

interface DecoyRow {
  sent_at: number
  expires_at: number
  attempts: number
  burned: boolean
}

/**
 * @example
 * const decoys = createSqlDecoys(client, 't_1a2b', 10_000)
 * await decoys.countWrong(record, 5) // { attempts: 1, burned: false }
 */
export function createSqlDecoys(
  client: SqlClient,
  schema: string | undefined,
  max: number,
): Async<DecoyCodes> {
  const sql = withTextEscapes(client)
  const table = qualified('decoy_codes', schema)
  return {
    async get(email, purpose) {
      const [row] = await sql.query<DecoyRow>(
        `SELECT sent_at, expires_at, attempts, burned FROM ${table} WHERE email = $1 AND purpose = $2`,
        [email, purpose],
      )
      if (!row) return undefined
      // An empty hash: no code's keyed hash is empty, so nothing matches it.
      return {
        id: `decoy:${purpose}:${email}`,
        email,
        purpose,
        hash: '',
        sentAt: row.sent_at,
        expiresAt: row.expires_at,
        attempts: row.attempts,
        usedAt: null,
        burned: row.burned,
        supersededAt: null,
        signup: null,
      }
    },
    async countWrong(record, maxAttempts) {
      // A burned decoy is not counted again (no row comes back), as the store's recordWrong does for a code.
      const [counted] = await sql.query<{ attempts: number; burned: boolean; inserted: boolean }>(
        `INSERT INTO ${table} AS d (email, purpose, sent_at, expires_at, attempts, burned)
         VALUES ($1, $2, $3, $4, 1, 1 >= $5::integer)
         ON CONFLICT (email, purpose) DO UPDATE SET attempts = d.attempts + 1, burned = d.attempts + 1 >= $5::integer
         WHERE NOT d.burned
         RETURNING attempts, burned, (xmax = 0) AS inserted`,
        [record.email, record.purpose, record.sentAt, record.expiresAt, maxAttempts],
      )
      if (!counted) return null
      // A new decoy may pass the cap: the oldest go first, as in memory.
      if (counted.inserted)
        await sql.query(
          `DELETE FROM ${table} WHERE seq <= (SELECT seq FROM ${table} ORDER BY seq DESC OFFSET $1 LIMIT 1)`,
          [max],
        )
      return { attempts: counted.attempts, burned: counted.burned }
    },
    purge: async (now, cooldownMs) =>
      (
        await sql.query(
          `DELETE FROM ${table} WHERE expires_at <= $1 AND sent_at + $2::double precision <= $1 RETURNING 1`,
          [now, cooldownMs],
        )
      ).length,
    size: async () => (await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0]!.n,
    clear: async () => void (await sql.query(`DELETE FROM ${table}`)),
  }
}
