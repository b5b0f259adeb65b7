// The chunks the user waits for, one object per page made by main.tsx. It counts loads for the loading bar and
// keeps loaded modules. A failure still waited for asks chunk-reload.ts; any other fails to its caller.

/** A dynamic import, named by the function that makes it (the module cache's key). */
export type ChunkLoader<M> = () => Promise<M>

export interface ChunkLoads {
  /** How many awaited chunks are on their way (for useSyncExternalStore). */
  subscribe(listener: () => void): () => void
  getSnapshot(): number
  /** The module `load` gave, once it is in; else null. */
  peek<M>(load: ChunkLoader<M>): M | null
  /**
   * The module of `load`: one import however many ask, kept once in. A failure is forgotten, so the next call
   * retries. Counts nothing as awaited, so it also serves fetching ahead.
   */
  fetch<M>(load: ChunkLoader<M>): Promise<M>
  /**
   * For an effect: awaits `chunk` while the component shows, and returns the cleanup.
   * A left component no longer counts, so its failure cannot reload the page under another one.
   */
  awaitWhileShown<T>(
    chunk: Promise<T>,
    loaded: (module: T) => void,
    failed: (error: unknown) => void,
  ): () => void
}

export interface ChunkLoadsOptions {
  /** The chunk-load rule (chunk-reload.ts): true when it has started a reload of the page. Never, by default. */
  reloadForFailedChunk?: () => boolean
}

/**
 * @example
 * const chunks = createChunkLoads({ reloadForFailedChunk: createChunkReload({ guard, now, getPath, reload, online }) })
 * useEffect(() => chunks.awaitWhileShown(chunks.fetch(loadErrorPage), setLoaded, () => setFailed(true)), [])
 */
export function createChunkLoads({ reloadForFailedChunk = () => false }: ChunkLoadsOptions = {}): ChunkLoads {
  let loading = 0
  const listeners = new Set<() => void>()
  const changeLoading = (by: number) => {
    loading += by
    listeners.forEach((listener) => listener())
  }
  const modules = new Map<ChunkLoader<unknown>, unknown>()
  const pending = new Map<ChunkLoader<unknown>, Promise<unknown>>()
  // The rule is asked once per failed chunk. Its waiters share the answer, so a reload is not followed by an error page.
  const reloadDecisions = new WeakMap<Promise<unknown>, boolean>()
  const reloadFor = (chunk: Promise<unknown>): boolean => {
    let decision = reloadDecisions.get(chunk)
    if (decision === undefined) reloadDecisions.set(chunk, (decision = reloadForFailedChunk()))
    return decision
  }

  // Counts `chunk` as awaited until it settles or `wanted` aborts. If the rule reloads, it stays pending until then.
  function awaitedLoad<T>(chunk: Promise<T>, wanted: AbortSignal): Promise<T> {
    if (wanted.aborted) return chunk
    let counted = true
    const release = () => {
      if (!counted) return
      counted = false
      wanted.removeEventListener('abort', release)
      changeLoading(-1)
    }
    changeLoading(1)
    wanted.addEventListener('abort', release)
    return chunk.then(
      (module) => {
        release()
        return module
      },
      (error: unknown) => {
        if (counted && reloadFor(chunk)) return new Promise<never>(() => {}) // the page is going
        release()
        throw error
      },
    )
  }

  return {
    subscribe(listener) {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    getSnapshot: () => loading,
    peek: <M>(load: ChunkLoader<M>) => (modules.has(load) ? (modules.get(load) as M) : null),
    fetch<M>(load: ChunkLoader<M>): Promise<M> {
      if (modules.has(load)) return Promise.resolve(modules.get(load) as M)
      let chunk = pending.get(load) as Promise<M> | undefined
      if (chunk) return chunk
      chunk = load().then(
        (module) => {
          modules.set(load, module)
          pending.delete(load)
          return module
        },
        (error: unknown) => {
          pending.delete(load) // the next visit asks again
          throw error
        },
      )
      pending.set(load, chunk)
      return chunk
    },
    awaitWhileShown(chunk, loaded, failed) {
      const wanted = new AbortController()
      awaitedLoad(chunk, wanted.signal).then(
        (module) => !wanted.signal.aborted && loaded(module),
        (error: unknown) => !wanted.signal.aborted && failed(error),
      )
      return () => wanted.abort()
    },
  }
}
