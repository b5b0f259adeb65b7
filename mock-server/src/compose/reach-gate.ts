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
  /**
   * The last lost connection's reason, and when a statement last tried the database since; null while it answers.
   * A try is let through every `retryMs`, even while an earlier one still waits: a try on a connection that hangs
   * (a silent database, until its time-out) kept every statement failing after the database was back.
   */
  let down: { reason: string; tried: number } | null = null
  /** When the latest statement the database answered began: a loss met by one begun before it is old news. */
  let answered = -Infinity
  return {
    async run(work) {
      const began = now()
      const trial = down !== null
      if (down) {
        if (began - down.tried < retryMs)
          throw new ServiceUnavailableError(
            `The database is out of reach (${down.reason}; one statement at a time tries it again).`,
          )
        down.tried = began
      }
      try {
        const result = await work()
        down = null
        answered = Math.max(answered, began)
        return result
      } catch (error) {
        if (lost(error)) {
          if (began >= answered) down = { reason: describe(error as Error), tried: now() }
        } else if (trial && down) down.tried = -Infinity // the database answered the try: the next tries at once
        throw error
      }
    },
  }
}
