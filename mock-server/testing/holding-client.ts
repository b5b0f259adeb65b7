// A SQL client that can hold a statement's answer, or tell when one is sent (statements outside a transaction): the
// cross-instance tests use it to put one server's call at a chosen point while another server acts
// (mock-server/src/compose/shared-store.test.ts, database-outage.test.ts).
import type { SqlClient } from '../src/shared/sql.ts'

interface Hold {
  pattern: RegExp
  caught: () => void
  released: Promise<void>
}

/** How mock-server/src/compose/sql-persistence.ts reads the shared clock another instance may have moved. */
export const CLOCK_READ = /^SELECT \(value->>'clockOffsetMs'\)/
/** How it writes an instance's clock moves and build. */
export const META_WRITE = /^UPDATE \S+\.server_meta/

/**
 * @example
 * const held = holdingClient(sql)
 * const hold = held.holdNext(/UPDATE \S+\.server_meta/) // the next such statement runs, its answer waits
 * await hold.caught; …; hold.release()
 */
export function holdingClient(client: SqlClient) {
  const holds: Hold[] = []
  const watches: { pattern: RegExp; seen: () => void }[] = []
  const failures: { pattern: RegExp; error: Error; failed: () => void }[] = []
  /** The hold the statement `text` meets, taken off the list; and every watch of it told. */
  function meet(text: string): Hold | undefined {
    for (const watch of watches.filter((one) => one.pattern.test(text))) {
      watches.splice(watches.indexOf(watch), 1)
      watch.seen()
    }
    const index = holds.findIndex((one) => one.pattern.test(text))
    return index === -1 ? undefined : holds.splice(index, 1)[0]
  }
  const held: SqlClient = {
    async query<Row>(text: string, params?: readonly unknown[]) {
      const hold = meet(text)
      const failure = failures.findIndex((one) => one.pattern.test(text))
      try {
        if (failure !== -1) {
          const [{ error, failed }] = failures.splice(failure, 1) as [(typeof failures)[number]]
          failed()
          throw error
        }
        return await client.query<Row>(text, params)
      } finally {
        // A statement that failed is held too, so the test goes on and meets the failure, not its own time-out.
        if (hold) {
          hold.caught()
          await hold.released
        }
      }
    },
    // Statements in a transaction or an exec are neither held nor watched: the clock's and the tests' are neither.
    exec: (text) => client.exec(text),
    manyConnections: client.manyConnections,
    transaction: (work) => client.transaction(work),
    close: () => client.close(),
  }
  return {
    client: held,
    /** The next statement matching `pattern` runs; its answer is held until `release()`. */
    holdNext(pattern: RegExp): { caught: Promise<void>; release: () => void } {
      let release!: () => void
      let caught!: () => void
      const released = new Promise<void>((resolve) => (release = resolve))
      const isCaught = new Promise<void>((resolve) => (caught = resolve))
      holds.push({ pattern, caught, released })
      return { caught: isCaught, release }
    },
    /** The next statement matching `pattern` is not sent: it fails with `error`; resolves once it has. */
    failNext(pattern: RegExp, error: Error): Promise<void> {
      return new Promise((failed) => failures.push({ pattern, error, failed }))
    },
    /** Resolves when a statement matching `pattern` is sent. */
    sent(pattern: RegExp): Promise<void> {
      return new Promise((seen) => watches.push({ pattern, seen }))
    },
  }
}
