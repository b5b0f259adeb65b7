// What a SQL store keeps beside the product's records: the token secret and the control clock's offset, in one
// server_meta row (product/storage/migrations.ts). The records, the counters, the scenarios and the mailbox are
// written as they change (product/storage/sql.ts, sql-counters.ts, compose/sql-control.ts); this is the Persistence
// core.ts already drives for a data file. Each call first takes the clock offset another instance may have moved.
import type { Mail, Mailbox } from '../control/mailbox.ts'
import type { DomainContext } from '../product/domain/context.ts'
import type { ControlClock } from '../shared/control-clock.ts'
import { qualified, type SqlClient } from '../shared/sql.ts'
import type { Persistence } from './persistence.ts'
import { createSaveChain } from './save-chain.ts'

export interface SqlState {
  client: SqlClient
  /** Where the tables are (tests: a schema per server); default the connection's search path. */
  schema?: string | undefined
}

interface SavedMeta {
  secret: string
  clockOffsetMs: number
  /** Mails of a database made before the mailbox had its table (migration 3): moved there once. */
  mails?: Mail[]
}

/**
 * The first instance on an empty database claims it (its secret goes in, and it seeds); any other, started with
 * it or later, loads what is there, so every instance signs with one secret.
 */
export function createSqlPersistence(
  state: SqlState,
  parts: { domain: DomainContext; mailbox: Mailbox; clock: ControlClock },
  options: { production?: boolean; report?: (line: string) => void } = {},
): Persistence {
  const { domain, mailbox, clock } = parts
  const table = qualified('server_meta', state.schema)
  const report = options.report ?? ((line: string) => console.error(line))
  const meta = (): SavedMeta => ({
    secret: domain.config.secret,
    clockOffsetMs: options.production ? 0 : clock.offsetMs(),
  })
  /** What was last written: most calls change no mail and no clock, and then write nothing. */
  let written = ''
  async function save(): Promise<void> {
    const value = JSON.stringify(meta())
    if (value === written) return
    await state.client.query(
      `INSERT INTO ${table} (key, value) VALUES ('server', $1::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
      [value],
    )
    written = value
  }
  return {
    async load() {
      const mine = JSON.stringify(meta())
      const claimed = await state.client.query(
        `INSERT INTO ${table} (key, value) VALUES ('server', $1::jsonb) ON CONFLICT (key) DO NOTHING RETURNING key`,
        [mine],
      )
      if (claimed.length === 1) {
        written = mine
        return false
      }
      const [row] = await state.client.query<{ value: SavedMeta }>(
        `SELECT value FROM ${table} WHERE key = 'server'`,
      )
      const { mails, ...saved } = row!.value
      domain.config.secret = saved.secret
      if (!options.production) clock.setOffset(saved.clockOffsetMs)
      if (mails?.length && (await mailbox.snapshot()).length === 0) await mailbox.restore(mails)
      written = mails ? '' : JSON.stringify(saved)
      return true
    },
    save,
    async sync() {
      if (options.production) return
      const [row] = await state.client.query<{ offset: number | null }>(
        `SELECT (value->>'clockOffsetMs')::double precision AS offset FROM ${table} WHERE key = 'server'`,
      )
      if (row?.offset == null || row.offset === clock.offsetMs()) return
      clock.setOffset(row.offset)
      written = JSON.stringify(meta())
    },
    ...createSaveChain(() =>
      save().catch((error: unknown) =>
        report(`Failed to save the server's state to the database (${(error as Error).message}).`),
      ),
    ),
  }
}
