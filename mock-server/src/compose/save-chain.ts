// Saves asked for while one runs are folded into one that follows it: a burst of changes costs two saves, and
// saves never overlap (compose/persistence.ts, compose/sql-persistence.ts).

export interface SaveChain {
  /** Saves soon, after any save under way. */
  schedule(): void
  /** Resolves once every save asked for so far has run. */
  flush(): Promise<void>
}

/** `save` never throws here: each caller reports its own failures inside it. */
export function createSaveChain(save: () => Promise<void>): SaveChain {
  let chain: Promise<void> = Promise.resolve()
  let pending = false
  return {
    schedule() {
      if (pending) return
      pending = true
      chain = chain.then(async () => {
        pending = false
        await save()
      })
    },
    flush: () => chain,
  }
}
