// A screen in a chunk of its own, loaded when first rendered. A state update rather than React.lazy and Suspense,
// whose reveal waits on a timer (a paused page clock would hold it). While a shown screen's chunk is loading the
// layout's loading bar shows (screenLoads); a chunk that fails to load throws at render, to the route's error
// boundary (and Vite's `vite:preloadError` reloads the page first: lib/navigation/chunk-reload.ts).
import { useEffect, useState, type ComponentType } from 'react'

type Listener = () => void
let loading = 0
const listeners = new Set<Listener>()
const changeLoading = (by: number) => {
  loading += by
  listeners.forEach((listener) => listener())
}

/**
 * Counts `chunk` as a load the user waits for until it settles, or until `wanted` is aborted (the screen that asked
 * for it was left): the loading bar shows meanwhile, and a chunk-load error then reloads the page
 * (lib/navigation/chunk-reload.ts), which a chunk fetched in the background, or no longer waited for, does not.
 * @example
 * const SchedulePicker = lazy(() => awaitedLoad(import('./schedule-picker.tsx')))
 */
export function awaitedLoad<T>(chunk: Promise<T>, wanted?: AbortSignal): Promise<T> {
  if (wanted?.aborted) return chunk
  let counted = true
  const release = () => {
    if (!counted) return
    counted = false
    wanted?.removeEventListener('abort', release)
    changeLoading(-1)
  }
  changeLoading(1)
  wanted?.addEventListener('abort', release)
  return chunk.finally(release)
}

/** How many chunks the user waits for are on their way: screens and the like (for useSyncExternalStore). */
export const screenLoads = {
  subscribe(listener: Listener) {
    listeners.add(listener)
    return () => void listeners.delete(listener)
  },
  getSnapshot: () => loading,
}

/**
 * @example
 * const HomePage = lazyScreen(() => import('../features/home/home-page.tsx'), (module) => module.HomePage)
 */
export function lazyScreen<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): ComponentType<P> {
  let loaded: ComponentType<P> | null = null
  let pending: Promise<ComponentType<P>> | null = null
  const get = () =>
    (pending ??= load().then(
      // No module: Vite's preload helper resolves to nothing when the chunk-reload rule took its error and reloads
      // the page; the screen stays loading until the page goes.
      (module: M | undefined) =>
        module === undefined ? new Promise<never>(() => {}) : (loaded = pick(module)),
      (error: unknown) => {
        pending = null // the next render tries again
        throw error
      },
    ))

  function LazyScreen(props: P) {
    const [Screen, setScreen] = useState<ComponentType<P> | null>(() => loaded)
    const [failure, setFailure] = useState<{ error: unknown } | null>(null)
    useEffect(() => {
      if (Screen) return
      // Left before its chunk is in (the user went elsewhere): no longer awaited, so its failure does not reload the
      // page under another screen; the next visit asks again.
      const wanted = new AbortController()
      awaitedLoad(get(), wanted.signal).then(
        (next) => !wanted.signal.aborted && setScreen(() => next),
        (error: unknown) => !wanted.signal.aborted && setFailure({ error }),
      )
      return () => wanted.abort()
    }, [Screen])
    if (failure) throw failure.error
    return Screen ? <Screen {...props} /> : null
  }
  return LazyScreen
}
