// The rules' counters in the SQL database every instance shares (domain/counters.ts): a guess, a wrong password or
// a sign-in counts once wherever it lands, so spreading an attack over instances buys nothing. Each write that a
// rule counts on is one statement (an upsert that restarts or advances its window), never a read then a write.
// Memory bounds the in-process counters; here the purge (domain/purge.ts) and the rate limits bound them.
import { qualified, type SqlClient } from '../../shared/sql.ts'
import type { Clock } from '../../shared/clock.ts'
import type { Async, CounterBackend, LimiterName, PendingPolicy } from '../domain/counters.ts'
import type { GuessLimit, GuessLog } from '../domain/guess-log.ts'
import type { LoginGate, Lockout, LockoutPolicy } from '../domain/lockout.ts'
import type { PendingPasswords } from '../domain/pending-passwords.ts'
import type { RateLimit, RateLimiter } from '../domain/rate-limit.ts'
import { createSqlDecoys } from './sql-decoys.ts'
import { withTextEscapes } from './sql-text.ts'

type Bucket = LimiterName | 'lockout-ceiling' | 'lockout-pace'

/** Seconds until `until`, at least 1 (a `Retry-After` of 0 would invite the next try at once). */
const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000))

/**
 * @example
 * const counters = createSqlCounters(client, 't_1a2b')
 * const login = counters.rateLimiter('login', clock, { max: 10, windowMs: 60_000 })
 */
export function createSqlCounters(client: SqlClient, schema?: string): CounterBackend {
  const sql = withTextEscapes(client)
  const T = {
    windows: qualified('rate_windows', schema),
    pairs: qualified('lock_pairs', schema),
    familiar: qualified('familiar_clients', schema),
    guesses: qualified('code_guesses', schema),
    pending: qualified('pending_passwords', schema),
  }
  const count = async (text: string, params: readonly unknown[]) =>
    (await sql.query<{ n: number }>(text, params))[0]?.n ?? 0

  /** A fixed window per key, as domain/rate-limit.ts counts it: a hit on an ended window starts a new one. */
  function rateLimiter(bucket: Bucket, clock: Clock, limit: RateLimit): Async<RateLimiter> {
    return {
      async hit(key) {
        const now = clock.now()
        const [window] = await sql.query<{ start_ms: number; hits: number }>(
          `INSERT INTO ${T.windows} AS w (bucket, key, start_ms, hits) VALUES ($1, $2, $3, 1)
           ON CONFLICT (bucket, key) DO UPDATE SET
             start_ms = CASE WHEN w.start_ms + $4 <= $3 THEN $3 ELSE w.start_ms END,
             hits = CASE WHEN w.start_ms + $4 <= $3 THEN 1 ELSE w.hits + 1 END
           RETURNING start_ms, hits`,
          [bucket, key, now, limit.windowMs],
        )
        return window!.hits <= limit.max ? 0 : secondsUntil(window!.start_ms + limit.windowMs, now)
      },
      count: (key) =>
        count(`SELECT hits AS n FROM ${T.windows} WHERE bucket = $1 AND key = $2 AND start_ms + $3 > $4`, [
          bucket,
          key,
          limit.windowMs,
          clock.now(),
        ]),
      forget: async (key) =>
        void (await sql.query(`DELETE FROM ${T.windows} WHERE bucket = $1 AND key = $2`, [bucket, key])),
      clear: async () => void (await sql.query(`DELETE FROM ${T.windows} WHERE bucket = $1`, [bucket])),
      size: () => count(`SELECT count(*)::int AS n FROM ${T.windows} WHERE bucket = $1`, [bucket]),
    }
  }

  /** domain/lockout.ts's rules, its books as tables: a pair's failures and lock, the known addresses, two windows. */
  function lockout(clock: Clock, policy: LockoutPolicy): Async<Lockout> {
    const ceiling = rateLimiter('lockout-ceiling', clock, { ...policy.ceiling, max: policy.ceiling.max - 1 })
    const pace = rateLimiter('lockout-pace', clock, { max: 1, windowMs: policy.paceMs })
    const lockSeconds = async (account: string, client: string) => {
      const now = clock.now()
      const [pair] = await sql.query<{ locked_until: number }>(
        `SELECT locked_until FROM ${T.pairs} WHERE account = $1 AND client = $2 AND locked_until > $3`,
        [account, client, now],
      )
      return pair ? secondsUntil(pair.locked_until, now) : 0
    }
    const isKnown = async (account: string, client: string) =>
      (await count(
        `SELECT count(*)::int AS n FROM ${T.familiar} WHERE account = $1 AND client = $2 AND until_ms > $3`,
        [account, client, clock.now()],
      )) > 0
    return {
      async admit(account, client): Promise<LoginGate> {
        const locked = await lockSeconds(account, client)
        if (locked > 0) return { kind: 'locked', retryAfter: locked }
        if ((await ceiling.count(account)) < policy.ceiling.max || (await isKnown(account, client)))
          return { kind: 'open' }
        const wait = await pace.hit(account)
        return wait > 0 ? { kind: 'paced', retryAfter: wait } : { kind: 'open' }
      },
      getLockSeconds: lockSeconds,
      async recordFailure(account, client) {
        // A locked pair counts nothing more; an ended lock starts the count again at this failure.
        await sql.query(
          `INSERT INTO ${T.pairs} AS p (account, client, failures, locked_until)
           VALUES ($1, $2, 1, CASE WHEN 1 >= $4::integer THEN $3::double precision + $5::double precision ELSE 0 END)
           ON CONFLICT (account, client) DO UPDATE SET
             failures = CASE WHEN p.locked_until > $3 THEN p.failures
                             WHEN p.locked_until > 0 THEN 1 ELSE p.failures + 1 END,
             locked_until = CASE WHEN p.locked_until > $3 THEN p.locked_until
                                 WHEN (CASE WHEN p.locked_until > 0 THEN 1 ELSE p.failures + 1 END) >= $4::integer
                                   THEN $3::double precision + $5::double precision
                                 ELSE 0 END`,
          [account, client, clock.now(), policy.threshold, policy.lockMs],
        )
        await ceiling.hit(account)
      },
      async recordSuccess(account, client) {
        await sql.query(`DELETE FROM ${T.pairs} WHERE account = $1 AND client = $2`, [account, client])
        await sql.query(
          `INSERT INTO ${T.familiar} (account, client, until_ms) VALUES ($1, $2, $3)
           ON CONFLICT (account, client) DO UPDATE SET until_ms = EXCLUDED.until_ms`,
          [account, client, clock.now() + policy.familiarMs],
        )
      },
      isKnown,
      async forgetAccount(account) {
        await sql.query(`DELETE FROM ${T.pairs} WHERE account = $1`, [account])
        await sql.query(`DELETE FROM ${T.familiar} WHERE account = $1`, [account])
        await ceiling.forget(account)
        await pace.forget(account)
      },
      async clear() {
        await sql.query(`DELETE FROM ${T.pairs}`)
        await sql.query(`DELETE FROM ${T.familiar}`)
        await ceiling.clear()
        await pace.clear()
      },
      size: async () => ({
        pairs: await count(`SELECT count(*)::int AS n FROM ${T.pairs}`, []),
        familiar: await count(`SELECT count(*)::int AS n FROM ${T.familiar}`, []),
        ceiling: await ceiling.size(),
        pace: await pace.size(),
      }),
    }
  }

  /** domain/guess-log.ts's sliding window: one row per wrong guess, the window's rows counted. */
  function guessLog(limit: GuessLimit): Async<GuessLog> {
    const keyOf = (email: string, purpose: string) => `${purpose}:${email}`
    const recent = async (key: string, now: number) =>
      (
        await sql.query<{ at_ms: number }>(
          `SELECT at_ms FROM ${T.guesses} WHERE key = $1 AND at_ms > $2
           ORDER BY at_ms DESC, seq DESC LIMIT $3`,
          [key, now - limit.windowMs, limit.max],
        )
      ).map((row) => row.at_ms)
    return {
      async wait(email, purpose, now) {
        const newestFirst = await recent(keyOf(email, purpose), now)
        if (newestFirst.length < limit.max) return 0
        return secondsUntil(newestFirst[limit.max - 1]! + limit.windowMs, now)
      },
      remaining: async (email, purpose, now) =>
        Math.max(0, limit.max - (await recent(keyOf(email, purpose), now)).length),
      async record(email, purpose, now) {
        const key = keyOf(email, purpose)
        // Guesses at one address from several instances take turns, so each sees the ones before it: without the
        // lock, 20 at once each counted only the committed ones and all were told some were left.
        const counted = await sql.transaction(async (tx) => {
          await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`code_guesses ${key}`])
          await tx.query(`INSERT INTO ${T.guesses} (key, at_ms) VALUES ($1, $2)`, [key, now])
          const [row] = await tx.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM ${T.guesses} WHERE key = $1 AND at_ms > $2`,
            [key, now - limit.windowMs],
          )
          return row!.n
        })
        return Math.max(0, limit.max - counted)
      },
      async purge(now) {
        const gone = await sql.query<{ key: string }>(
          `DELETE FROM ${T.guesses} WHERE at_ms <= $1 RETURNING key`,
          [now - limit.windowMs],
        )
        const left = new Set(
          (await sql.query<{ key: string }>(`SELECT DISTINCT key FROM ${T.guesses}`)).map((row) => row.key),
        )
        return new Set(gone.map((row) => row.key).filter((key) => !left.has(key))).size
      },
      size: () => count(`SELECT count(DISTINCT key)::int AS n FROM ${T.guesses}`, []),
      clear: async () => void (await sql.query(`DELETE FROM ${T.guesses}`)),
      async snapshot() {
        const rows = await sql.query<{ key: string; at_ms: number }>(
          `SELECT key, at_ms FROM ${T.guesses} ORDER BY key, at_ms, seq`,
        )
        const logs: Record<string, number[]> = {}
        for (const row of rows) (logs[row.key] ??= []).push(row.at_ms)
        return logs
      },
    }
  }

  /** domain/pending-passwords.ts's record per address, kept until keepMs after the sign-up. */
  function pendingPasswords(clock: Clock, policy: PendingPolicy): Async<PendingPasswords> {
    return {
      record: async (address, passwordHash) =>
        void (await sql.query(
          `INSERT INTO ${T.pending} (address, password_hash, until_ms) VALUES ($1, $2, $3)
           ON CONFLICT (address) DO UPDATE SET password_hash = EXCLUDED.password_hash, until_ms = EXCLUDED.until_ms`,
          [address, passwordHash, clock.now() + policy.keepMs],
        )),
      find: async (address) =>
        (
          await sql.query<{ password_hash: string }>(
            `SELECT password_hash FROM ${T.pending} WHERE address = $1 AND until_ms > $2`,
            [address, clock.now()],
          )
        )[0]?.password_hash,
      forget: async (address) =>
        void (await sql.query(`DELETE FROM ${T.pending} WHERE address = $1`, [address])),
      purge: async () =>
        (await sql.query(`DELETE FROM ${T.pending} WHERE until_ms <= $1 RETURNING 1`, [clock.now()])).length,
      size: () => count(`SELECT count(*)::int AS n FROM ${T.pending}`, []),
      clear: async () => void (await sql.query(`DELETE FROM ${T.pending}`)),
    }
  }

  return {
    rateLimiter: (name, clock, limit) => rateLimiter(name, clock, limit),
    lockout,
    guessLog: (limit) => guessLog(limit),
    pendingPasswords,
    decoys: (max) => createSqlDecoys(client, schema, max),
  }
}
