// A timer the test fires itself (control/mail-delivery.ts `Timer`), so the retries and deadlines of mail delivery are
// tested without waiting: the test waits for a run to be scheduled, reads its delay, and runs it.
import type { Timer } from '../src/control/mail-delivery.ts'

export interface ManualTimer extends Timer {
  /** The delays of the runs scheduled and not yet fired or cancelled, oldest first. */
  pending(): number[]
  /** Every delay ever scheduled, in order. */
  history: number[]
  /** Resolves once `count` runs are pending; rejects after 15 s. */
  untilPending(count: number): Promise<void>
  /** Runs the oldest pending run. */
  fireNext(): void
  /** Runs the oldest pending run scheduled after `ms`. */
  fire(ms: number): void
}

export function createManualTimer(): ManualTimer {
  const runs: Array<{ ms: number; run: () => void }> = []
  const history: number[] = []
  const waiters = new Set<() => void>()
  return {
    after(ms, run) {
      const entry = { ms, run }
      runs.push(entry)
      history.push(ms)
      for (const waiter of [...waiters]) waiter()
      return () => {
        const index = runs.indexOf(entry)
        if (index >= 0) runs.splice(index, 1)
      }
    },
    pending: () => runs.map((entry) => entry.ms),
    history,
    untilPending(count) {
      if (runs.length >= count) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`Failed to see ${count} retries scheduled: ${runs.length} are.`))
        }, 15_000)
        function check() {
          if (runs.length < count) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve()
        }
        waiters.add(check)
      })
    },
    fireNext() {
      const entry = runs.shift()
      if (!entry) throw new Error('Failed to fire a retry: none is scheduled.')
      entry.run()
    },
    fire(ms) {
      const index = runs.findIndex((entry) => entry.ms === ms)
      if (index < 0)
        throw new Error(`Failed to fire a run after ${ms} ms: none is scheduled (${runs.length} are).`)
      runs.splice(index, 1)[0]!.run()
    },
  }
}
