// The SQL store: the port (product/storage/port.ts) over PGlite or PostgreSQL. Each atomic step is one
// conditional statement or one transaction, so any number of instances on one database cannot both win it:
// a rotation retires its parent only `WHERE retired_at IS NULL`, a code is used only while usable, and so on.
// Nothing is cached: every read goes to the database, so a revocation on one instance holds on every other at once.
import { qualified, type SqlClient, type SqlQueryable } from '../../shared/sql.ts'
import { PURGE_BATCH_ROWS, PURGE_BATCHES_PER_RUN } from '../../shared/constants.ts'
import type { ProductStore } from './port.ts'
import type {
  CollectionName,
  ProductSnapshot,
  RefreshTokenRecord,
  SessionRecord,
  UserRecord,
} from './records.ts'
import { TABLES, insertOf, joinedRecord, joinedSelectList, selectList, setList } from './sql-tables.ts'
import { withTextEscapes } from './sql-text.ts'

const COLLECTIONS = Object.keys(TABLES) as CollectionName[]

/**
 * @param schema Where the tables are (default: the connection's search path). Tests put each server's tables in
 * a schema of their own, so many servers share one database.
 */
export function createSqlStore(
  client: SqlClient,
  schema?: string,
  /** Tests make the purge's batches small. */
  { purgeBatchRows = PURGE_BATCH_ROWS, purgeBatchesPerRun = PURGE_BATCHES_PER_RUN } = {},
): ProductStore {
  const T = tableNames(schema)
  /** Every collection's table, as a reset or an import empties them. */
  const collectionTables = COLLECTIONS.map((name) => T[TABLES[name].name])
  // A reset: DELETE, not TRUNCATE, as it meets tables of a few rows, which TRUNCATE replaces file by file (7 ms on
  // PGlite against under 2). One text of statements runs as one transaction, and it first locks every table as
  // TRUNCATE did: another instance's write lands wholly before the reset or wholly after it, never between two
  // DELETEs.
  const emptyAll = [
    `LOCK TABLE ${collectionTables.join(', ')} IN ACCESS EXCLUSIVE MODE;`,
    ...collectionTables.map((table) => `DELETE FROM ${table};`),
  ].join('\n')
  const sql = withTextEscapes(client)
  const one = async <Row>(db: SqlQueryable, text: string, params: readonly unknown[]) =>
    ((await db.query(text, params))[0] as Row | undefined) ?? null
  const many = async <Row>(text: string, params: readonly unknown[]) =>
    (await sql.query(text, params)) as Row[]
  const count = async (text: string, params: readonly unknown[]) =>
    (await sql.query<{ n: number }>(text, params))[0]?.n ?? 0
  const insert = async (db: SqlQueryable, name: CollectionName, records: readonly object[]) => {
    const statement = insertOf(name, records, schema)
    if (statement) await db.query(statement.text, statement.params)
  }
  const select = (name: CollectionName) => `SELECT ${selectList(name)} FROM ${T[TABLES[name].name]}`
  /** A session and its account in one statement, found by `column` (of the session, aliased s). */
  const sessionWithUser = async (column: string, value: string) => {
    const row = await one<Record<string, unknown>>(
      sql,
      `SELECT ${joinedSelectList('sessions', 's')}, ${joinedSelectList('users', 'u')}
       FROM ${T.sessions} s LEFT JOIN ${T.users} u ON u.id = s.user_id WHERE ${column} = $1`,
      [value],
    )
    const session = row && joinedRecord<SessionRecord>(row, 'sessions', 's')
    return session && { session, user: joinedRecord<UserRecord>(row, 'users', 'u') }
  }
  return {
    users: {
      byId: (id) => one(sql, `${select('users')} WHERE id = $1`, [id]),
      byEmail: (email) => one(sql, `${select('users')} WHERE email = $1`, [email]),
      async create(user) {
        const statement = insertOf('users', [user], schema)!
        const text = `${statement.text} ON CONFLICT (email) DO NOTHING RETURNING ${selectList('users')}`
        return one(sql, text, statement.params)
      },
      async update(id, patch) {
        const set = setList('users', patch, 2)
        if (!set.text) return one(sql, `${select('users')} WHERE id = $1`, [id])
        return one(sql, `UPDATE ${T.users} SET ${set.text} WHERE id = $1 RETURNING ${selectList('users')}`, [
          id,
          ...set.params,
        ])
      },
      listUnverified: async (keep) =>
        (
          await many<{ id: string; email: string; createdAt: number }>(
            `SELECT id, email, created_at AS "createdAt" FROM ${T.users} WHERE NOT verified ORDER BY created_at, seq`,
            [],
          )
        ).filter((user) => !keep.has(user.email)),
      deleteUnverified: (id) =>
        sql.transaction(async (tx) => {
          const gone = await tx.query(
            `DELETE FROM ${T.users} u WHERE id = $1 AND NOT verified
               AND NOT EXISTS (SELECT 1 FROM ${T.codes} c WHERE c.email = u.email) RETURNING id`,
            [id],
          )
          if (gone.length === 0) return 0
          const steps = await tx.query(`DELETE FROM ${T.steps} WHERE user_id = $1 RETURNING id`, [id])
          const resets = await tx.query(`DELETE FROM ${T.reset_tokens} WHERE user_id = $1 RETURNING id`, [id])
          return 1 + steps.length + resets.length
        }),
    },
    sessions: {
      async create(session) {
        await insert(sql, 'sessions', [session])
        return session
      },
      byId: (id) => one(sql, `${select('sessions')} WHERE id = $1`, [id]),
      byCookieHash: (hash) => one(sql, `${select('sessions')} WHERE cookie_hash = $1`, [hash]),
      byIdWithUser: (id) => sessionWithUser('s.id', id),
      byCookieHashWithUser: (hash) => sessionWithUser('s.cookie_hash', hash),
      listLive: (userId) =>
        many(`${select('sessions')} WHERE user_id = $1 AND revoked_at IS NULL ORDER BY seq`, [userId]),
      revoke: (id, at, reason) =>
        sql.transaction(async (tx) => {
          const revoked = await tx.query(
            `UPDATE ${T.sessions} SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL RETURNING id`,
            [id, at, reason],
          )
          if (revoked.length === 0) return false
          // A revoked family's tokens can never be used again: drop the sealed pairs at once.
          await tx.query(`UPDATE ${T.refresh_tokens} SET grace_box = NULL WHERE session_id = $1`, [id])
          return true
        }),
      // In batches, each its own statement (PURGE_BATCH_ROWS): what one purge leaves, the next takes.
      async purgeEnded(endedBy) {
        let removed = 0
        for (let batch = 0; batch < purgeBatchesPerRun; batch += 1) {
          const [row] = await sql.query<{ sessions: number; n: number }>(
            `WITH gone AS (
               DELETE FROM ${T.sessions} WHERE id IN (
                 SELECT id FROM ${T.sessions} WHERE LEAST(expires_at, COALESCE(revoked_at, 'Infinity')) <= $1 LIMIT $2
               ) RETURNING id
             ), tokens AS (DELETE FROM ${T.refresh_tokens} WHERE session_id IN (SELECT id FROM gone) RETURNING id)
             SELECT (SELECT count(*) FROM gone)::int AS sessions,
               ((SELECT count(*) FROM gone) + (SELECT count(*) FROM tokens))::int AS n`,
            [endedBy, purgeBatchRows],
          )
          removed += row?.n ?? 0
          if ((row?.sessions ?? 0) < purgeBatchRows) break
        }
        return removed
      },
    },
    refreshTokens: {
      async create(token) {
        await insert(sql, 'refreshTokens', [token])
        return token
      },
      byHash: (hash) => one(sql, `${select('refreshTokens')} WHERE hash = $1`, [hash]),
      async byHashWithSession(hash) {
        const row = await one<Record<string, unknown>>(
          sql,
          `SELECT ${joinedSelectList('refreshTokens', 'r')}, ${joinedSelectList('sessions', 's')}
           FROM ${T.refresh_tokens} r LEFT JOIN ${T.sessions} s ON s.id = r.session_id WHERE r.hash = $1`,
          [hash],
        )
        const token = row && joinedRecord<RefreshTokenRecord>(row, 'refreshTokens', 'r')
        return token && { token, session: joinedRecord<SessionRecord>(row, 'sessions', 's') }
      },
      byId: (id) => one(sql, `${select('refreshTokens')} WHERE id = $1`, [id]),
      // One statement, one round trip: the parent is retired only while live, and the child is written only
      // when it was (the casts give the INSERT's parameters the columns' types of migration 1).
      rotate: async ({ parentId, child, retiredAt, graceBox }) =>
        (
          await sql.query(
            `WITH retired AS (
               UPDATE ${T.refresh_tokens} SET retired_at = $2, child_id = $3, grace_box = $4
               WHERE id = $1 AND retired_at IS NULL RETURNING id
             )
             INSERT INTO ${T.refresh_tokens} (id, session_id, hash, created_at, retired_at, child_id, grace_box)
             SELECT $3::text, $5::text, $6::text, $7::double precision, $8::double precision, $9::text, $10::text
             WHERE EXISTS (SELECT 1 FROM retired)
             RETURNING id`,
            [
              parentId,
              retiredAt,
              child.id,
              graceBox,
              child.sessionId,
              child.hash,
              child.createdAt,
              child.retiredAt,
              child.childId,
              child.graceBox,
            ],
          )
        ).length === 1,
    },
    codes: {
      latest: (email, purpose) =>
        one(
          sql,
          `${select('codes')} WHERE email = $1 AND purpose = $2 ORDER BY sent_at DESC, seq DESC LIMIT 1`,
          [email, purpose],
        ),
      listUnused: (email, purpose, now) =>
        many(
          `${select('codes')} WHERE email = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > $3 ORDER BY seq`,
          [email, purpose, now],
        ),
      issue: (code) =>
        sql.transaction(async (tx) => {
          await tx.query(
            `UPDATE ${T.codes} SET superseded_at = $3 WHERE email = $1 AND purpose = $2 AND superseded_at IS NULL`,
            [code.email, code.purpose, code.sentAt],
          )
          await insert(tx, 'codes', [code])
        }),
      use: async (id, now) =>
        (
          await sql.query(
            `UPDATE ${T.codes} SET used_at = $2 WHERE id = $1 AND used_at IS NULL AND superseded_at IS NULL
               AND NOT burned AND expires_at > $2 RETURNING id`,
            [id, now],
          )
        ).length === 1,
      recordWrong: (id, maxAttempts) =>
        one(
          sql,
          `UPDATE ${T.codes} SET attempts = attempts + 1, burned = attempts + 1 >= $2
           WHERE id = $1 AND NOT burned RETURNING attempts, burned`,
          [id, maxAttempts],
        ),
      async setSignUps(email, signup) {
        await sql.query(
          `UPDATE ${T.codes} SET signup = $2::jsonb WHERE email = $1 AND purpose = 'signup' AND used_at IS NULL`,
          [email, signup],
        )
      },
      anyFor: async (email) =>
        (await sql.query(`SELECT 1 FROM ${T.codes} WHERE email = $1 LIMIT 1`, [email])).length > 0,
      purgeDone: (now, cooldownMs) =>
        count(
          `WITH gone AS (DELETE FROM ${T.codes} WHERE expires_at <= $1 AND sent_at + $2 <= $1 RETURNING id)
           SELECT count(*)::int AS n FROM gone`,
          [now, cooldownMs],
        ),
    },
    resetTokens: {
      replace: (token) =>
        sql.transaction(async (tx) => {
          await tx.query(`DELETE FROM ${T.reset_tokens} WHERE user_id = $1`, [token.userId])
          await insert(tx, 'resetTokens', [token])
        }),
      byHash: (hash) => one(sql, `${select('resetTokens')} WHERE hash = $1`, [hash]),
      use: async (hash, now) =>
        (
          await one<{ userId: string }>(
            sql,
            `UPDATE ${T.reset_tokens} SET used_at = $2 WHERE hash = $1 AND used_at IS NULL AND expires_at > $2
             RETURNING user_id AS "userId"`,
            [hash, now],
          )
        )?.userId ?? null,
      async deleteFor(userId) {
        await sql.query(`DELETE FROM ${T.reset_tokens} WHERE user_id = $1`, [userId])
      },
      purgeDone: (now) =>
        count(
          `WITH gone AS (DELETE FROM ${T.reset_tokens} WHERE expires_at <= $1 OR used_at IS NOT NULL RETURNING id)
           SELECT count(*)::int AS n FROM gone`,
          [now],
        ),
    },
    steps: {
      createAll: (steps) => insert(sql, 'steps', steps),
      list: (userId) => many(`${select('steps')} WHERE user_id = $1 ORDER BY position, seq`, [userId]),
      async update(userId, id, patch) {
        const set = setList('steps', patch, 3)
        if (!set.text) return one(sql, `${select('steps')} WHERE id = $1 AND user_id = $2`, [id, userId])
        return one(
          sql,
          `UPDATE ${T.steps} SET ${set.text} WHERE id = $1 AND user_id = $2 RETURNING ${selectList('steps')}`,
          [id, userId, ...set.params],
        )
      },
    },
    async snapshot() {
      const entries = await Promise.all(
        COLLECTIONS.map(async (name) => [name, await sql.query(`${select(name)} ORDER BY seq`)] as const),
      )
      return Object.fromEntries(entries) as unknown as ProductSnapshot
    },
    restore: (snapshot) =>
      sql.transaction(async (tx) => {
        await tx.exec(`TRUNCATE ${collectionTables.join(', ')}`)
        for (const name of COLLECTIONS) {
          // In slices: a statement takes at most 65,535 parameters.
          const records = snapshot[name] ?? []
          for (let start = 0; start < records.length; start += 1_000)
            await insert(tx, name, records.slice(start, start + 1_000))
        }
      }),
    clear: () => sql.exec(emptyAll),
  }
}

/** Each table's name as the queries write it. */
function tableNames(schema: string | undefined): Record<string, string> {
  const names = Object.values(TABLES).map((table) => table.name)
  return Object.fromEntries(names.map((name) => [name, qualified(name, schema)]))
}
