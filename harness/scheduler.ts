// Lowering a whole session for the scheduler. Where Linux groups each session's processes (autogroup), a nice value
// weighs only against the processes of its own session, so a script that should yield to another session lowers
// its session's group too (scripts/run-parallel.ts, harness/balancer-leg.ts; docs/decisions/025-ci-minutes.md).
import { writeFileSync } from 'node:fs'

/** The nice a yielding session's group gets: that of `nice -n 10`. */
const YIELDING_NICE = 10
/** Without CAP_SYS_ADMIN Linux takes one such change a tenth of a second, machine-wide, and refuses the rest. */
const REFUSED_RETRY_MS = 100
const REFUSED_TRIES = 20

/**
 * Sets the autogroup of `pid`'s session (this process's by default) to nice 10, trying again while Linux refuses
 * (EAGAIN). Without autogroup, or for a process gone, it does nothing: nice alone orders the processes then.
 * @example lowerSessionGroup(child.pid) // a child spawned `detached`, so in a session of its own
 */
export function lowerSessionGroup(pid: number | 'self' = 'self'): void {
  for (let attempt = 0; attempt < REFUSED_TRIES; attempt++) {
    try {
      writeFileSync(`/proc/${pid}/autogroup`, String(YIELDING_NICE))
      return
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, REFUSED_RETRY_MS)
    }
  }
}
