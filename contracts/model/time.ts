/**
 * Time in the model: the server's clock is real time plus the offset the model moved it by (/__mock/clock), so an
 * event is known only to lie between the moment its request left and the moment its answer came back.
 * Pure: no clock of its own; callers hand in the readings.
 */

/** The server-clock interval in which an event happened (ms). */
export interface Moment {
  from: number
  to: number
}

/** Where an elapsed time stands against a rule's figure: surely within, surely past, or too close to say. */
export type Elapsed = 'within' | 'past' | 'unknown'

/**
 * How the time from `earlier` to `later` compares with `figureMs`. The boundary itself is left open on purpose:
 * the documents say "within 10 s", not whether the 10,000th millisecond is in.
 * @example compareElapsed({ from: 0, to: 5 }, { from: 20_000, to: 20_010 }, 10_000) // 'past'
 */
export function compareElapsed(earlier: Moment, later: Moment, figureMs: number): Elapsed {
  const shortest = later.from - earlier.to
  const longest = later.to - earlier.from
  if (longest < figureMs) return 'within'
  if (shortest > figureMs) return 'past'
  return 'unknown'
}
