// What a SQL store needs of a database, whichever engine runs it: PGlite for --data <dir>, PostgreSQL for
// --database <url> (compose/sql-drivers.ts). Both speak PostgreSQL's dialect, so one set of queries and one set of
// migrations serves both (docs/decisions/024-storage-port.md).

export interface SqlQueryable {
  /** One statement with $1-style parameters; its rows. */
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>
  /** Several statements without parameters (a migration). */
  exec(text: string): Promise<void>
}

export interface SqlClient extends SqlQueryable {
  /**
   * Several connections (PostgreSQL): a transaction may stay open while other statements run beside it. PGlite has
   * one, and a statement outside its open transaction waits for it to end.
   */
  readonly manyConnections?: boolean
  /** Runs `work` in one transaction: every statement in it commits together or not at all. */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

/**
 * A table's name as queries write it: in `schema` when one is given (tests give each server one). The schema is
 * checked here, once for every caller, since it is written into the SQL text.
 * @example qualified('users', 't_1a2b') // 't_1a2b.users'
 */
export function qualified(table: string, schema?: string): string {
  if (schema === undefined) return table
  if (!/^[a-z_][a-z0-9_]*$/.test(schema))
    throw new Error(`Failed to use the database: "${schema}" is not a schema name.`)
  return `${schema}.${table}`
}
