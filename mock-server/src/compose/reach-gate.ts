// How a pool meets a database that stopped answering (compose/sql-drivers.ts). Each statement would otherwise wait
// out its own connect time-out: a development call (clock read, purge, its own reads, its journal entry) took 15 to
// 20 s to be answered 503 on a silent database, and a burst of calls opened every connection the pool has, each
// waiting as long. Once a connection is lost, one statement at a time tries the database again, at most one a
// `retryMs`; every other statement fails at once with the reason the last try gave.
import { ServiceUnavailableError } from '../shared/unavailable.ts'

/** After a failed try, how long the next statements fail at once before one may try again. */
export const REACH_RETRY_MS = 1_000

export interface ReachGate {
  /** Runs `work`, or fails at once with ServiceUnavailableError while the database is known to be out of reach. */
  run<T>(work: () => Promise<T>): Promise<T>
}

export function createReachGate(
  /** Whether an error says the connection to the database is lost (not that a statement was refused). */
  lost: (error: unknown) => boolean,
  {
    retryMs = REACH_RETRY_MS,
    now = () => performance.now(),
    describe = (error: Error) => error.message,
  }: { retryMs?: number; now?: () => number; describe?: (error: Error) => string } = {},
): ReachGate {
  /** The last lost connection's reason and when a statement learned it; null while the database answers. */
  let down: { reason: string; at: number } | null = null
  let trying = false
  return {
    async run(work) {
      const trial = down !== null
      if (down && (trying || now() - down.at < retryMs))
        throw new ServiceUnavailableError(
          `The database is out of reach (${down.reason}; one statement at a time tries it again).`,
        )
      if (trial) trying = true
      try {
        const result = await work()
        down = null
        return result
      } catch (error) {
        if (lost(error)) down = { reason: describe(error as Error), at: now() }
        throw error
      } finally {
        if (trial) trying = false
      }
    },
  }
}
