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
  /** Runs `work` in one transaction: every statement in it commits together or not at all. */
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}
