// The external sign-ins the product waits on, in the SQL database every instance shares (docs/mock-server.md,
// "Where the state lives"): a sign-in started on one instance is called back on another, in production too. Taken
// once, with its browser's binding, by one statement. Tables: migration 5 of product/storage/migrations.ts.
//
// The state and the binding are stored as SHA-256 hashes. The nonce and PKCE verifier cannot be: the callback needs
// them back. They are sealed (AES-256-GCM, shared/crypto.ts sealBox) under a key derived from both the server's
// secret (server_meta, shared by every instance: compose/sql-persistence.ts) and the sign-in's state, which only the
// browser holds. Whoever reads this table alone learns nothing; whoever also reads server_meta still needs the state,
// of which the table keeps only a hash. Hashing the key alone would not do: the verifier in clear would let a reader
// who also caught the code (in a log of redirects, say) finish the sign-in.
import { EXTERNAL_SIGN_IN_TTL_MS, MAX_PENDING_SIGN_INS } from '../shared/constants.ts'
import type { Clock } from '../shared/clock.ts'
import { createRandomPool, hashToken, keyedHash, openBox, sealBox } from '../shared/crypto.ts'
import type { PendingSignIns } from '../external-sign-in/pending-sign-ins.ts'
import type { PendingSignIn } from '../external-sign-in/types.ts'
import { qualified, type SqlClient } from '../shared/sql.ts'
import { keepWithin } from './sql-bounded.ts'

/**
 * @example
 * const signIns = createSqlPendingSignIns(client, clock, { schema, secret: () => domain.config.secret })
 * await signIns.add(state, cookie, pending) // on one instance
 * await signIns.take(state, cookie) // on another: pending, then null everywhere
 */
export function createSqlPendingSignIns(
  client: SqlClient,
  clock: Clock,
  options: { schema?: string | undefined; secret: () => string; max?: number },
): PendingSignIns {
  const table = qualified('pending_sign_ins', options.schema)
  const random = createRandomPool()
  // Read at each call: the secret is the database's once the first instance's is loaded (sql-persistence.ts).
  const keyOf = (state: string) => keyedHash(options.secret(), 'pending-sign-in', state)
  return {
    async add(state, binding, pending) {
      const now = clock.now()
      const sealed = sealBox(keyOf(state), JSON.stringify(pending), random)
      const [row] = await client.query<{ seq: string }>(
        `INSERT INTO ${table} (state_hash, binding_hash, sealed, expires_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (state_hash) DO UPDATE SET binding_hash = $2, sealed = $3, expires_at = $4, seq = DEFAULT
         RETURNING seq`,
        [hashToken(state), hashToken(binding), sealed, now + EXTERNAL_SIGN_IN_TTL_MS],
      )
      await keepWithin(client, table, options.max ?? MAX_PENDING_SIGN_INS, row!.seq, now)
    },
    async take(state, binding) {
      if (binding === undefined) return null
      // One statement: of two callbacks at once, on any instances, one gets the row; a wrong binding leaves it.
      const [row] = await client.query<{ sealed: string }>(
        `DELETE FROM ${table} WHERE state_hash = $1 AND binding_hash = $2 AND expires_at > $3 RETURNING sealed`,
        [hashToken(state), hashToken(binding), clock.now()],
      )
      const opened = row ? openBox(keyOf(state), row.sealed) : null
      return opened === null ? null : (JSON.parse(opened) as PendingSignIn)
    },
    clear: async () => void (await client.query(`DELETE FROM ${table}`)),
  }
}
