// A chunk loader that fails a set number of times, then gives the real module.
// For background chunks the app asks for again (the toast area).

export interface FlakyImport {
  /** How many of the next imports fail. */
  failures: number
  /** How many imports were asked for in all. */
  requests: number
}

/**
 * @example
 * const chunk = { failures: 1, requests: 0 }
 * const toasts = createToasts({ loadArea: () => importFlaky(chunk, loadToaster, 'toaster.tsx') })
 */
export async function importFlaky<M>(
  state: FlakyImport,
  importOriginal: () => Promise<M>,
  name: string,
): Promise<M> {
  state.requests += 1
  if (state.failures > 0) {
    state.failures -= 1
    throw new Error(`Failed to fetch dynamically imported module: ${name}`)
  }
  return importOriginal()
}

// Captured as this module loads, before a test fakes the timers.
const realSetTimeout = globalThis.setTimeout
const nextTask = () => new Promise((resolve) => realSetTimeout(resolve, 0))

/**
 * Waits until the module was asked for `requests` times and the last answer reached its caller.
 * Polled on the real clock, since vi.waitFor would move a test's fake timers.
 */
export async function askedFor(state: FlakyImport, requests: number): Promise<void> {
  for (let turns = 0; state.requests < requests && turns < 500; turns++) await nextTask()
  await nextTask()
  if (state.requests !== requests)
    throw new Error(`Expected ${requests} imports in all, got ${state.requests}.`)
}

/**
 * Waits until `condition` holds, polled on the real clock, so a test's fake timers do not move meanwhile.
 */
export async function until(condition: () => boolean, what = 'the condition'): Promise<void> {
  for (let turns = 0; !condition() && turns < 5_000; turns++) await nextTask()
  if (!condition()) throw new Error(`Expected ${what} within 5,000 turns of the event loop.`)
}
