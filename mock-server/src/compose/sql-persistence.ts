// What a SQL store keeps beside the product's records: the token secret and the control clock's offset, in one
// server_meta row (product/storage/migrations.ts). The records, the counters, the scenarios and the mailbox are
// written as they change (product/storage/sql.ts, sql-counters.ts, compose/sql-control.ts); this is the Persistence
// core.ts already drives for a data file. Each call first takes the clock offset another instance may have moved.
import type { Mail, Mailbox } from '../control/mailbox.ts'
import type { DomainContext } from '../product/domain/context.ts'
import type { ControlClock } from '../shared/control-clock.ts'
import { takeTransactionLock } from '../shared/sql-migrate.ts'
import { qualified, type SqlClient, type SqlQueryable } from '../shared/sql.ts'
import type { Persistence } from './persistence.ts'
import { createSaveChain } from './save-chain.ts'

export interface SqlState {
  client: SqlClient
  /** Where the tables are (tests: a schema per server); default the connection's search path. */
  schema?: string | undefined
}

/** The first start's advisory lock class (ASCII "seed"), beside the migrations' (shared/sql-migrate.ts). */
const FIRST_START_LOCK_CLASS = 0x73656564

/** The build QA announced as newest (POST /__mock/build), or null. */
type ServedBuildOverride = { id: string; timestamp: number } | null

interface SavedMeta {
  secret: string
  clockOffsetMs: number
  /** Development: announced through any instance, served by all. */
  servedBuild?: ServedBuildOverride
  /** Mails of a database made before the mailbox had its table (migration 3): moved there once. */
  mails?: Mail[]
}

/**
 * The first instance on an empty database seeds it and then writes its secret in; any other, started with it or
 * later, loads what is there, so every instance signs with one secret.
 */
export function createSqlPersistence(
  state: SqlState,
  parts: {
    domain: DomainContext
    mailbox: Mailbox
    clock: ControlClock
    build?: { override: ServedBuildOverride }
  },
  options: { production?: boolean; report?: (line: string) => void } = {},
): Persistence {
  const { domain, mailbox, clock } = parts
  const build = parts.build ?? { override: null }
  const table = qualified('server_meta', state.schema)
  const report = options.report ?? ((line: string) => console.error(line))
  const meta = (): SavedMeta => ({
    secret: domain.config.secret,
    clockOffsetMs: options.production ? 0 : clock.offsetMs(),
    servedBuild: options.production ? null : build.override,
  })
  const buildText = () => JSON.stringify(build.override)
  /**
   * What the database last held as far as this instance knows: the offset, the outright moves counted then, and the
   * served build (as JSON text).
   */
  let shared = { offset: clock.offsetMs(), outright: clock.outrightMoves(), build: buildText() }
  /**
   * The database holds `offset`, every outright move up to the `outright`th (by default, all made so far), and
   * `build` (by default, what it held).
   */
  const settle = (offset: number, outright = clock.outrightMoves(), build = shared.build) =>
    (shared = { offset, outright, build })
  async function writeMeta(): Promise<void> {
    await state.client.query(
      `INSERT INTO ${table} (key, value) VALUES ('server', $1::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [JSON.stringify(meta())],
    )
  }
  // Saves take turns. A sync applies what it read only if none of this instance's writes ran beside the read: a
  // read made between a write's addition and its settling here would count that addition twice. A save with nothing
  // to write is no write: any call but a GET asks for one, and discarding a read for it left a call on a busy
  // instance without another instance's clock move.
  let saving: Promise<unknown> = Promise.resolve()
  /** Odd while a write runs; bumped when one starts and when it has settled here. */
  let writes = 0
  /** Bumped when a write fails: a save asked for before then fails with it, since the moves it was for are undone. */
  let failed: { count: number; error?: unknown } = { count: 0 }
  const save = (asked = failed.count): Promise<void> => {
    const run = saving.then(() => {
      if (failed.count === asked) return addMoves()
      // A move this call made after the failed write was undone is unsaved still; so may be other calls' moves,
      // made after it: undone too, each of their calls fails as well, and none answered 503 keeps its move.
      if (!options.production && unsaved()) undo(failed.error)
      return Promise.reject(failed.error)
    })
    saving = run.catch(() => undefined)
    return run
  }
  /** A clock move made here that the database does not hold yet. */
  const clockUnsaved = () => clock.offsetMs() !== shared.offset || clock.outrightMoves() !== shared.outright
  const unsaved = () => clockUnsaved() || buildText() !== shared.build
  /** This instance's unsaved moves and build are undone, and every save asked for before now fails with `error`. */
  function undo(error: unknown): void {
    clock.setOffset(shared.offset)
    shared = { ...shared, outright: clock.outrightMoves() }
    build.override = JSON.parse(shared.build) as ServedBuildOverride
    failed = { count: failed.count + 1, error }
  }
  async function writing<T>(work: () => Promise<T>): Promise<T> {
    writes += 1
    try {
      return await work()
    } catch (error) {
      // A move that could not be saved is not kept: its call is answered 503, and a retry must count once.
      undo(error)
      throw error
    } finally {
      writes += 1
    }
  }
  /**
   * This instance's clock moves and build since it last read the database, in one statement: a move answered 503
   * is kept by none. A build or a set or a reset is written as it is (the last one wins); advances are added to what
   * the database holds, so concurrent ones all count.
   */
  async function addMoves(): Promise<void> {
    if (options.production) return
    const text = buildText()
    const buildMoved = text !== shared.build
    if (!buildMoved && !clockUnsaved()) return
    const offset = clock.offsetMs()
    await writing(async () => {
      // A move made here while the statement runs is not in it: it stays unsettled, for the next save.
      const outright = clock.outrightMoves()
      // The fields alone: the whole row would also write back a build or a clock another instance moved meanwhile.
      const value = buildMoved ? `jsonb_set(value, '{servedBuild}', $2::jsonb)` : 'value'
      const params = (first: number) => (buildMoved ? [first, text] : [first])
      if (outright !== shared.outright) {
        const [written] = await state.client.query(
          `UPDATE ${table} SET value = jsonb_set(${value}, '{clockOffsetMs}', to_jsonb($1::double precision))
           WHERE key = 'server' RETURNING 1 AS written`,
          params(offset),
        )
        if (!written) await writeMeta()
        return void settle(offset, outright, text)
      }
      // An advance, or none when only the build moved: the offset the database holds is read back either way.
      const delta = offset - shared.offset
      const [row] = await state.client.query<{ offset: number }>(
        `UPDATE ${table} SET value = jsonb_set(${value}, '{clockOffsetMs}',
           to_jsonb(COALESCE((value->>'clockOffsetMs')::double precision, 0) + $1::double precision))
         WHERE key = 'server' RETURNING (value->>'clockOffsetMs')::double precision AS offset`,
        params(delta),
      )
      if (!row) return writeMeta().then(() => void settle(offset, outright, text))
      // Advances made here while the statement ran stay on top of what the database now holds; a set or a reset
      // made meanwhile stays as it is.
      if (clock.outrightMoves() === outright) clock.setOffset(row.offset + (clock.offsetMs() - offset))
      settle(row.offset, outright, text)
    })
  }
  const readRow = async (db: SqlQueryable) =>
    (await db.query<{ value: SavedMeta }>(`SELECT value FROM ${table} WHERE key = 'server'`))[0]?.value
  /** Writes this instance's row if none is there; whether it did. */
  const claim = async (db: SqlQueryable) =>
    (
      await db.query(
        `INSERT INTO ${table} (key, value) VALUES ('server', $1::jsonb) ON CONFLICT (key) DO NOTHING RETURNING key`,
        [JSON.stringify(meta())],
      )
    ).length === 1
  /** Null once this instance's row is in; else the row found there (written beside it). */
  const claimOrRead = async (db: SqlQueryable) => ((await claim(db)) ? null : ((await readRow(db)) ?? null))
  async function loadRow(saved: SavedMeta): Promise<true> {
    const { mails, ...rest } = saved
    domain.config.secret = rest.secret
    if (!options.production) clock.setOffset(rest.clockOffsetMs)
    if (!options.production) build.override = rest.servedBuild ?? null
    settle(clock.offsetMs(), clock.outrightMoves(), buildText())
    if (mails?.length && (await mailbox.snapshot()).length === 0) await mailbox.restore(mails)
    // The mails move to their table once: the row is written again without them.
    if (mails) await writeMeta()
    return true
  }
  /**
   * The row goes in only once `initialize` has made the state, inside a transaction holding the first start's lock
   * on PostgreSQL: a start killed before then leaves no row and no lock (its transaction rolls back with its
   * connection), so the next start makes the state again instead of loading an unseeded database; and a start
   * beside it waits for the lock, then loads the row. PGlite has one server (the --data lock) and one connection,
   * which an open transaction would hold back from `initialize`.
   */
  async function firstStart(initialize: () => Promise<void>): Promise<SavedMeta | null> {
    if (!state.client.manyConnections) {
      await initialize()
      return claimOrRead(state.client)
    }
    return state.client.transaction(async (tx) => {
      await takeTransactionLock(tx, FIRST_START_LOCK_CLASS, state.schema, 'seeding the database', {
        onWait: () => report('Another server is seeding the database: waiting for it to finish.'),
      })
      const saved = await readRow(tx)
      if (saved) return saved
      await initialize()
      // A row written meanwhile without this lock (a server of an earlier release claims before it seeds) wins:
      // kept with a secret of its own, this server's tokens were refused by that one.
      return claimOrRead(tx)
    })
  }
  return {
    async load(initialize) {
      const saved = (await readRow(state.client)) ?? (await firstStart(initialize))
      if (saved) return loadRow(saved)
      settle(clock.offsetMs())
      return false
    },
    save,
    sync: syncMoves,
    failures: () => failed.count,
    ...createSaveChain(() =>
      save().catch((error: unknown) =>
        report(`Failed to save the server's state to the database (${(error as Error).message}).`),
      ),
    ),
  }

  /**
   * What another instance moved, read for this call. A read beside a write of this instance is made again once that
   * write has settled, never skipped: the call must see every move answered before it came, wherever it was made.
   */
  async function syncMoves(): Promise<void> {
    if (options.production) return
    for (;;) {
      const before = writes
      const [row] = await state.client.query<{
        offset: number | null
        build: ServedBuildOverride | undefined
      }>(
        `SELECT (value->>'clockOffsetMs')::double precision AS offset, value->'servedBuild' AS build
         FROM ${table} WHERE key = 'server'`,
      )
      if (before % 2 === 0 && writes === before) return row && apply(row)
      await saving
    }
  }

  function apply(row: { offset: number | null; build: ServedBuildOverride | undefined }): void {
    // Another instance announced a build; one announced here and not yet saved wins.
    const text = JSON.stringify(row.build ?? null)
    if (text !== shared.build && buildText() === shared.build) build.override = row.build ?? null
    shared = { ...shared, build: text }
    if (row.offset == null || row.offset === shared.offset) return
    // Another instance moved the clock. A move made here and not yet saved stays on top of it (an outright one
    // as it is, an advance added), so a sync between a move and its save loses nothing.
    if (clock.outrightMoves() === shared.outright)
      clock.setOffset(row.offset + (clock.offsetMs() - shared.offset))
    shared = { ...shared, offset: row.offset }
  }
}
