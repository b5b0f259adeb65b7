// The server's controllable clock: real time plus an offset that QA and tests move through /__mock/clock.
import { LATEST_DATE_MS } from './constants.ts'
import type { Clock } from './clock.ts'

export interface ControlClock extends Clock {
  /** How far the clock runs ahead of (or behind) real time. */
  offsetMs(): number
  /** Moves the clock forward by `ms`. */
  advance(ms: number): void
  /** Sets the clock to `epochMs`. */
  set(epochMs: number): void
  /** Sets how far the clock runs ahead of real time (another instance's offset, read from the database). */
  setOffset(offsetMs: number): void
  reset(): void
  /**
   * How many times the clock was set outright (`set`, `reset`): a shared store writes such a move as it is, and an
   * advance as an addition, so concurrent advances through several instances all count.
   */
  outrightMoves(): number
}

/**
 * @example
 * const clock = createControlClock()
 * clock.advance(15 * 60_000) // every access token issued before now has expired
 */
export function createControlClock(realNow: () => number = Date.now, initialOffsetMs = 0): ControlClock {
  let offset = initialOffsetMs
  let outright = 0
  return {
    // It stops at the last millisecond of 9999: past it, no date-time could write the time it tells.
    now: () => Math.min(realNow() + offset, LATEST_DATE_MS),
    offsetMs: () => offset,
    advance(ms) {
      offset += ms
    },
    set(epochMs) {
      offset = epochMs - realNow()
      outright += 1
    },
    setOffset(offsetMs) {
      offset = offsetMs
    },
    reset() {
      offset = 0
      outright += 1
    },
    outrightMoves: () => outright,
  }
}
