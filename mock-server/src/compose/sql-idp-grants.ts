// The identity provider's grants in the SQL database every instance shares (docs/mock-server.md, "Where the state
// lives"): a form shown by one instance is answered on another, a code issued by one is exchanged on another, and a
// code is presented once across all of them. Each rule is one statement, never a read and then a write across an
// await; times are the server's controllable clock. Only SHA-256 hashes of request ids, codes and tokens are kept.
// Tables: migration 5 of product/storage/migrations.ts.
import {
  IDP_CODE_TTL_MS,
  IDP_MAX_ENTRIES,
  IDP_REQUEST_TTL_MS,
  IDP_TOKEN_TTL_MS,
} from '../shared/constants.ts'
import type { Clock } from '../shared/clock.ts'
import { createRandomToken, hashToken } from '../shared/crypto.ts'
import type { AuthorizationRequest } from '../idp/authorization-request.ts'
import { codeGrantOf, type AccessGrant, type CodeGrant, type Grants } from '../idp/grants.ts'
import { withTextEscapes } from '../product/storage/sql-text.ts'
import { qualified, type SqlClient } from '../shared/sql.ts'
import { keepWithin } from './sql-bounded.ts'

/**
 * @example
 * const grants = createSqlGrants(client, clock, schema)
 * const code = await grants.issueCode(request, account)
 */
export function createSqlGrants(client: SqlClient, clock: Clock, schema?: string): Grants {
  const sql = withTextEscapes(client)
  const T = {
    requests: qualified('idp_requests', schema),
    codes: qualified('idp_codes', schema),
    tokens: qualified('idp_tokens', schema),
  }
  const keep = async (table: string, hash: string, body: unknown, ttlMs: number) => {
    const now = clock.now()
    const [row] = await sql.query<{ seq: string }>(
      `INSERT INTO ${table} (hash, body, expires_at) VALUES ($1, $2::jsonb, $3) RETURNING seq`,
      [hash, JSON.stringify(body), now + ttlMs],
    )
    await keepWithin(sql, table, IDP_MAX_ENTRIES, row!.seq, now)
  }
  return {
    async issueCode(request, account) {
      const code = createRandomToken()
      await keep(T.codes, hashToken(code), codeGrantOf(request, account, clock.now()), IDP_CODE_TTL_MS)
      return code
    },
    async takeCode(code) {
      const hash = hashToken(code)
      const now = clock.now()
      // Taken once: of the instances presenting one code at once, one update finds it unspent. A spent code is kept
      // as long as what it bought lives, so a replay can revoke it.
      const [taken] = await sql.query<{ body: CodeGrant }>(
        `UPDATE ${T.codes} SET spent = true, expires_at = $2 WHERE hash = $1 AND NOT spent AND expires_at > $3
         RETURNING body`,
        [hash, now + IDP_TOKEN_TTL_MS, now],
      )
      if (taken) return { grant: taken.body }
      // A replay marks the code, which every token it bought is checked against (getAccessGrant), and drops them.
      const replayed = await sql.query(
        `WITH marked AS (
           UPDATE ${T.codes} SET replayed = true WHERE hash = $1 AND spent AND expires_at > $2 RETURNING hash
         ), dropped AS (DELETE FROM ${T.tokens} WHERE code_hash IN (SELECT hash FROM marked))
         SELECT hash FROM marked`,
        [hash, now],
      )
      return { replayed: replayed.length > 0 }
    },
    async issueAccessToken(grant) {
      const token = createRandomToken()
      const now = clock.now()
      // One statement: the code's row is locked while the token goes in, so a replay either comes first (no token)
      // or after (it marks the code, and getAccessGrant refuses every token of a marked code).
      const [issued] = await sql.query<{ seq: string }>(
        `WITH code AS (
           UPDATE ${T.codes} SET expires_at = GREATEST(expires_at, $4) WHERE hash = $2 AND spent AND NOT replayed
           RETURNING hash
         )
         INSERT INTO ${T.tokens} (hash, code_hash, body, expires_at) SELECT $1, hash, $3::jsonb, $4 FROM code
         RETURNING seq`,
        [hashToken(token), grant.codeHash, JSON.stringify(grant), now + IDP_TOKEN_TTL_MS],
      )
      if (!issued) return null
      await keepWithin(sql, T.tokens, IDP_MAX_ENTRIES, issued.seq, now)
      return token
    },
    async getAccessGrant(token) {
      const [row] = await sql.query<{ body: AccessGrant }>(
        `SELECT t.body FROM ${T.tokens} t JOIN ${T.codes} c ON c.hash = t.code_hash
         WHERE t.hash = $1 AND t.expires_at > $2 AND NOT c.replayed`,
        [hashToken(token), clock.now()],
      )
      return row?.body
    },
    async holdRequest(request) {
      const id = createRandomToken()
      await keep(T.requests, hashToken(id), request, IDP_REQUEST_TTL_MS)
      return id
    },
    async takeRequest(id) {
      const [row] = await sql.query<{ body: AuthorizationRequest }>(
        `DELETE FROM ${T.requests} WHERE hash = $1 AND expires_at > $2 RETURNING body`,
        [hashToken(id), clock.now()],
      )
      return row?.body ?? null
    },
    async clear() {
      for (const table of [T.requests, T.tokens, T.codes]) await sql.query(`DELETE FROM ${table}`)
    },
  }
}
