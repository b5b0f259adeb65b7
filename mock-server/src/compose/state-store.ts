// Where the server's state lives, chosen from the options: memory (default), a JSON data file (--data FILE of
// earlier releases), or a SQL database (--data <dir> on PGlite, --database <url> on PostgreSQL), which may take
// over a JSON data file once (docs/decisions/024-storage-port.md).
import type { ControlStores } from '../control/index.ts'
import { MAX_MAILS, type Mailbox } from '../control/mailbox.ts'
import type { Clock } from '../shared/clock.ts'
import { createSqlMailbox, createSqlScenarios } from './sql-control.ts'
import { createSqlSinkStore } from './sql-sinks.ts'
import { MAX_SINK_ITEMS } from '../control/sinks.ts'
import { IDP_MAX_ENTRIES, MAX_SINK_BYTES } from '../shared/constants.ts'
import { createSqlIdpAccounts, createSqlIdpClients, shareSigningKey } from './sql-idp.ts'
import { createSqlGrants } from './sql-idp-grants.ts'
import { createSqlPendingSignIns } from './sql-sign-ins.ts'
import type { PendingSignIns } from '../external-sign-in/pending-sign-ins.ts'
import type { IdpStores } from '../idp/index.ts'
import { createSigningKey } from '../idp/keys.ts'
import { createSqlJournal } from './sql-journal.ts'
import { createJournal, type Journal } from '../pipeline/journal.ts'
import type { ReadinessProbe } from '../health/index.ts'
import type { DomainContext } from '../product/domain/context.ts'
import type { ServedBuild } from '../product/operations/context.ts'
import type { ProductStore } from '../product/storage/port.ts'
import { createSqlStore } from '../product/storage/sql.ts'
import { createSqlCounters } from '../product/storage/sql-counters.ts'
import type { CounterBackend } from '../product/domain/counters.ts'
import type { ControlClock } from '../shared/control-clock.ts'
import type { MockOptions } from './options.ts'
import type { Persistence } from './persistence.ts'
import { createSqlPersistence } from './sql-persistence.ts'

/** The product's store for these options; undefined leaves the product its memory store. */
export function productStoreOf(options: MockOptions): ProductStore | undefined {
  return options.sql ? createSqlStore(options.sql.client, options.sql.schema) : undefined
}

/**
 * The scenarios, the mailbox and the sinks in the database, so /__mock reads and arms the same on every instance.
 * Production has no /__mock and no sinks: its mailbox stays in each process, so no code is ever written to the
 * database in clear.
 */
export function controlStoresOf(options: MockOptions, clock: Clock): ControlStores {
  if (!options.sql || options.production) return {}
  const { client, schema } = options.sql
  return {
    scenarios: createSqlScenarios(client, clock, schema),
    mailbox: createSqlMailbox(client, clock, { schema, max: MAX_MAILS }),
    sinks: createSqlSinkStore(client, {
      schema,
      maxBytes: options.maxSinkBytes ?? MAX_SINK_BYTES,
      maxItems: MAX_SINK_ITEMS,
    }),
  }
}

/**
 * The identity provider's accounts, clients, grants and signing key in the database, so a sign-in goes through
 * whichever instances its requests reach. The provider is off in production: nothing then.
 */
export function idpStoresOf(
  options: MockOptions,
  clock: Clock,
  seeds: readonly { email: string; name: string }[],
): IdpStores {
  if (!options.sql || options.production) return {}
  const { client, schema } = options.sql
  return {
    accounts: createSqlIdpAccounts(client, { schema, max: IDP_MAX_ENTRIES, seeds }),
    clients: createSqlIdpClients(client, { schema, max: IDP_MAX_ENTRIES }),
    grants: createSqlGrants(client, clock, schema),
    key: createSigningKey(shareSigningKey(client, schema)),
  }
}

/**
 * The external sign-ins waiting for their callback in the database, production included (a real provider calls
 * back through whichever instance the balancer picks); their nonce and verifier sealed under `secret`.
 */
export function pendingSignInsOf(
  options: MockOptions,
  clock: Clock,
  secret: () => string,
): PendingSignIns | undefined {
  if (!options.sql) return undefined
  return createSqlPendingSignIns(options.sql.client, clock, { schema: options.sql.schema, secret })
}

/**
 * The request journal in the database in development, so /__mock/requests and its HAR are every instance's calls.
 * Production journals nothing (compose/dispatcher.ts) and keeps the empty journal of its process, as before.
 */
export function journalOf(options: MockOptions, clock: Clock): Journal {
  if (!options.sql || options.production) return createJournal(clock)
  return createSqlJournal(options.sql.client, clock, { schema: options.sql.schema })
}

/** The rules' counters beside the records, so every instance on one database counts together; memory without SQL. */
export function productCountersOf(options: MockOptions): CounterBackend | undefined {
  return options.sql ? createSqlCounters(options.sql.client, options.sql.schema) : undefined
}

/**
 * The database answers and takes writes: readiness fails while it does not (docs/deploying.md, Probes). A primary a
 * failover demoted answers reads, and every write there fails.
 */
export function storeProbesOf(options: MockOptions): ReadinessProbe[] {
  const { sql } = options
  if (!sql) return []
  const writable = `SELECT NOT pg_is_in_recovery() AND current_setting('transaction_read_only') = 'off' AS ok`
  return [
    {
      name: 'store',
      check: async () => (await sql.client.query<{ ok: boolean }>(writable))[0]?.ok === true,
    },
  ]
}

interface StateParts {
  domain: DomainContext
  mailbox: Mailbox
  clock: ControlClock
  production: boolean
  /** The build announced as newest, shared through a SQL store (compose/sql-persistence.ts). */
  build: ServedBuild
}

export function openPersistence(options: MockOptions, parts: StateParts): Persistence | null {
  const report = options.logError && { report: options.logError }
  const file = options.dataFile
    ? openDataFile(options)(options.dataFile, parts.domain, parts.mailbox, parts.clock, {
        production: parts.production,
        ...report,
      })
    : null
  if (!options.sql) return file
  const sql = createSqlPersistence(options.sql, parts, { production: parts.production, ...report })
  if (!file) return sql
  return {
    ...sql,
    // A database met for the first time takes the JSON file's state, once, as its first start; the file is left
    // as it was. Its secret and clock so go into the database's row with it.
    async load(initialize) {
      let imported = false
      const loaded = await sql.load(async () => void (imported = await file.load(initialize)))
      if (imported)
        options.log?.(`Imported ${options.dataFile} into the database; the file is left as it was.`)
      return loaded || imported
    },
  }
}

/** The data file's opener app.ts hands in (a file only the Node server has). */
function openDataFile(options: MockOptions): NonNullable<MockOptions['openDataFile']> {
  if (!options.openDataFile) throw new Error('A data file needs the Node server (app.ts), which opens it.')
  return options.openDataFile
}
