// What a SQL store keeps beside the product's records: the token secret, the control clock's offset and the
// mailbox, in one server_meta row (product/storage/migrations.ts). The records themselves are written as they
// change (product/storage/sql.ts); this is the Persistence core.ts already drives for a data file.
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
  mails: Mail[]
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
    // Production mode keeps no code anywhere but the database's hashes (as a data file: compose/persistence.ts).
    mails: options.production
      ? mailbox.snapshot().map(({ code: _code, ...mail }) => mail)
      : mailbox.snapshot(),
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
      const saved = row!.value
      written = JSON.stringify(saved)
      domain.config.secret = saved.secret
      if (!options.production) clock.set(Date.now() + saved.clockOffsetMs)
      mailbox.restore(saved.mails)
      return true
    },
    save,
    ...createSaveChain(() =>
      save().catch((error: unknown) =>
        report(`Failed to save the server's state to the database (${(error as Error).message}).`),
      ),
    ),
  }
}
