// The chunks the user waits for (screens, the error page, the date picker), one object per page made by main.tsx:
// how many are on their way (the layout's loading bar), the modules already in (a screen shown again renders at once),
// and what a failed one does. A chunk that fails while still waited for asks the chunk-load rule, which may reload the
// page (chunk-reload.ts); one fetched in the background, or no longer waited for, fails to its caller.

/** A dynamic import, named by the function that makes it (the module cache's key). */
export type ChunkLoader<M> = () => Promise<M>

export interface ChunkLoads {
  /** How many awaited chunks are on their way (for useSyncExternalStore). */
  subscribe(listener: () => void): () => void
  getSnapshot(): number
  /** The module `load` gave, once it is in; else null. */
  peek<M>(load: ChunkLoader<M>): M | null
  /**
   * The module of `load`: one import in flight however many ask, kept once in; a failure is forgotten, so the next
   * call asks again. Also for fetching ahead of need (the error page at idle): nothing counts as awaited here.
   */
  fetch<M>(load: ChunkLoader<M>): Promise<M>
  /**
   * For an effect: awaits `chunk` for as long as the component shows, and hands the outcome on only if it still does;
   * returns the effect's cleanup, which stops the waiting. A component left before its chunk is in (the user went
   * elsewhere) no longer counts, so its failure does not reload the page under another one.
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
  // The rule is asked once per failed chunk: several waiting for the same one (the date picker of each step) share
  // its answer, so the first one's reload is not followed by the others' error page.
  const reloadDecisions = new WeakMap<Promise<unknown>, boolean>()
  const reloadFor = (chunk: Promise<unknown>): boolean => {
    let decision = reloadDecisions.get(chunk)
    if (decision === undefined) reloadDecisions.set(chunk, (decision = reloadForFailedChunk()))
    return decision
  }

  // Counts `chunk` as awaited until it settles or `wanted` is aborted. When it fails while still counted and the rule
  // reloads the page, it stays pending, and counted, until the page goes.
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
