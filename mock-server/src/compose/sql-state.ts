// Opens the SQL database main.ts was pointed at, takes the embedded store's one-writer lock, and migrates it
// (docs/mock-server.md, "Where the state lives"). Node only: main.ts imports it once the flags are read.
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { PRODUCT_MIGRATIONS } from '../product/storage/migrations.ts'
import { migrate } from '../shared/sql-migrate.ts'
import type { SqlClient, SqlQueryable } from '../shared/sql.ts'
import { holdsDatabase, lockDataDir } from './data-lock.ts'
import { savedStateSchema } from './persistence.ts'
import { openPglite, openPostgres } from './sql-drivers.ts'

export type StateLocation = { database: string } | { dataDir: string }

export interface OpenedState {
  client: SqlClient
  /** The migration versions this start applied (none when the database was current). */
  applied: number[]
  close(): Promise<void>
}

/**
 * Where `--data <path>` keeps the embedded store: the folder itself, or, for a JSON data file of earlier
 * releases, the folder `<path>.d` beside it (the file is imported into it once and left as it was). Until that
 * folder holds a database, the file is checked first: any other file stops the start before a folder is made.
 */
export function resolveDataPath(given: string): { dataDir: string; importFile?: string } {
  // A symbolic link is followed: PGlite's file system cannot open one.
  const path = existsSync(given) ? realpathSync(given) : given
  if (!existsSync(path) || !statSync(path).isFile()) return { dataDir: path }
  const dataDir = `${path}.d`
  if (!holdsDatabase(dataDir)) checkImportFile(path)
  return { dataDir, importFile: path }
}

/**
 * A file given to --data must be a whole JSON data file of this server before `<file>.d` takes it: any other file
 * stops the start with one line that quotes none of it.
 */
function checkImportFile(file: string): void {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (cause) {
    throw new Error(`Failed to start: --data ${file} cannot be read (${describe(cause)}).`, { cause })
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  if (!savedStateSchema.safeParse(json).success)
    throw new Error(
      `Failed to start: --data ${file} is a file, and not a data file of this server; give a folder for the embedded store.`,
    )
}

export async function openSqlState(
  location: StateLocation,
  onError: (line: string) => void,
  /** Called once if another server takes the --data folder over (this one was frozen): it must stop at once. */
  onLost: () => void = () => undefined,
): Promise<OpenedState> {
  if ('database' in location) {
    const client = openPostgres(location.database, onError)
    try {
      const onWait = () => onError('Another server is migrating the database: waiting for it to finish.')
      const applied = await migrate(client, PRODUCT_MIGRATIONS, undefined, { onWait })
      return { client, applied, close: () => client.close() }
    } catch (error) {
      await client.close().catch(() => undefined)
      // A refusal of migrate's own (a newer schema) already says why the start failed.
      if (error instanceof Error && error.message.startsWith('Failed to start:')) throw error
      throw new Error(`Failed to start: the database cannot be opened (${describe(error)}).`, {
        cause: error,
      })
    }
  }
  const lock = lockDataDir(location.dataDir, onError, onLost)
  try {
    const client = whileHeld(await openPglite(location.dataDir), lock.held)
    const applied = await migrate(client, PRODUCT_MIGRATIONS)
    lock.made()
    return { client, applied, close: async () => (await client.close(), lock.release()) }
  } catch (error) {
    lock.release()
    throw error
  }
}

/**
 * `client`, each statement sent only while the --data lock is still this server's (a stat, microseconds): a server
 * frozen past its lock's marks and taken over never writes beside the new holder.
 */
function whileHeld(client: SqlClient, held: () => boolean): SqlClient {
  const guard = <T>(send: () => Promise<T>): Promise<T> =>
    held()
      ? send()
      : Promise.reject(new Error('Failed to write: another server has taken over this --data folder.'))
  const guarded = (db: SqlQueryable): SqlQueryable => ({
    query: (text, params) => guard(() => db.query(text, params)),
    exec: (text) => guard(() => db.exec(text)),
  })
  return {
    ...guarded(client),
    manyConnections: client.manyConnections,
    transaction: (work) => guard(() => client.transaction((tx) => work(guarded(tx)))),
    close: () => client.close(),
  }
}

/** An error's code or message: never a URL, which may carry a password. */
function describe(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  const text = (message ?? String(error)).replace(/\w+:\/\/\S+/g, '<url>')
  return code ? `${code}: ${text}` : text
}
