// The calls a host is still working on, answered or not: a stop waits for them (hosts/graceful-shutdown.ts), since
// a client that gives up on its call closes the response while the handler may still write to the store.

export interface InFlight {
  /** How many calls are being worked on. */
  readonly size: number
  /** `work`, counted while it runs. */
  track<T>(work: Promise<T>): Promise<T>
  /** Resolves once no call is being worked on. */
  idle(): Promise<void>
}

export function createInFlight(): InFlight {
  let size = 0
  const waiting: Array<() => void> = []
  return {
    get size() {
      return size
    },
    track(work) {
      size += 1
      return work.finally(() => {
        size -= 1
        if (size === 0) for (const resolve of waiting.splice(0)) resolve()
      })
    },
    idle: () => (size === 0 ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve))),
  }
}
