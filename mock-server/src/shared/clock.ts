// The clock every domain module reads: injected, so tests and QA can move time.

export interface Clock {
  /** Milliseconds since the epoch, as the server sees it. */
  now(): number
}
