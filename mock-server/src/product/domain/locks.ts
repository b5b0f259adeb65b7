// A keyed mutex: operations on one key run one after another, so a check and its update cannot
// interleave with another request's (the store's updates are asynchronous).

export interface KeyedLock {
  run<T>(key: string, task: () => Promise<T>): Promise<T>
}

export function createKeyedLock(): KeyedLock {
  const tails = new Map<string, Promise<unknown>>()
  return {
    async run(key, task) {
      const previous = tails.get(key) ?? Promise.resolve()
      const current = previous.then(task, task)
      const tail = current.catch(() => undefined)
      tails.set(key, tail)
      try {
        return await current
      } finally {
        if (tails.get(key) === tail) tails.delete(key)
      }
    },
  }
}
