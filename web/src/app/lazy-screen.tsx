// A screen in a chunk of its own, loaded when first rendered. A state update rather than React.lazy and Suspense,
// whose reveal waits on a timer (a paused page clock would hold it). While a shown screen's chunk is loading the
// layout's loading bar shows (screenLoads); a chunk that fails to load reloads the page once
// (lib/navigation/chunk-reload.ts), and otherwise throws at render, to the route's error boundary.
import { useEffect, useState, type ComponentType, type ReactNode } from 'react'

type Listener = () => void
let loading = 0
const listeners = new Set<Listener>()
const changeLoading = (by: number) => {
  loading += by
  listeners.forEach((listener) => listener())
}

let reloadForFailedChunk: () => boolean = () => false

/**
 * What a load the user still waits for does when it fails (main.tsx: lib/navigation/chunk-reload.ts): `handler`
 * returns true when it has started a reload of the page. Returns a function that puts back the default (the failure
 * goes on to its caller).
 */
export function onAwaitedLoadFailure(handler: () => boolean): () => void {
  reloadForFailedChunk = handler
  return () => void (reloadForFailedChunk = () => false)
}

/**
 * Asks the rule once per failed chunk: several waiting for the same one (the date picker of each step) share its
 * answer, so the first one's reload is not followed by the others' error page.
 */
const reloadDecisions = new WeakMap<Promise<unknown>, boolean>()
function reloadFor(chunk: Promise<unknown>): boolean {
  let decision = reloadDecisions.get(chunk)
  if (decision === undefined) reloadDecisions.set(chunk, (decision = reloadForFailedChunk()))
  return decision
}

/**
 * Counts `chunk` as a load the user waits for until it settles, or until `wanted` is aborted (the component that
 * asked for it has gone): the loading bar shows meanwhile. If it fails while still waited for, the chunk-load rule may
 * reload the page (onAwaitedLoadFailure); then it stays pending, and counted, until the page goes. A chunk no longer
 * waited for, or fetched in the background (not through here), fails to its caller.
 */
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

/**
 * For an effect: awaits `chunk` for as long as the component shows (awaitedLoad), and hands the outcome on only if it
 * still does; returns the effect's cleanup, which stops the waiting. A component left before its chunk is in (the user
 * went elsewhere) no longer counts, so its failure does not reload the page under another one.
 * @example
 * useEffect(() => (loaded ? undefined : awaitWhileShown(loadErrorPage(), setLoaded, () => setFailed(true))), [loaded])
 */
export function awaitWhileShown<T>(
  chunk: Promise<T>,
  loaded: (module: T) => void,
  failed: (error: unknown) => void,
): () => void {
  const wanted = new AbortController()
  awaitedLoad(chunk, wanted.signal).then(
    (module) => !wanted.signal.aborted && loaded(module),
    (error: unknown) => !wanted.signal.aborted && failed(error),
  )
  return () => wanted.abort()
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
  /** Shown while the chunk is on its way (a part of a screen, such as the date picker); nothing by default. */
  { placeholder = null }: { placeholder?: ReactNode } = {},
): ComponentType<P> {
  let loaded: ComponentType<P> | null = null
  let pending: Promise<ComponentType<P>> | null = null
  const get = () =>
    (pending ??= load().then(
      (module) => (loaded = pick(module)),
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
      // The next visit asks again when this one left before the chunk was in.
      return awaitWhileShown(
        get(),
        (next) => setScreen(() => next),
        (error) => setFailure({ error }),
      )
    }, [Screen])
    if (failure) throw failure.error
    return Screen ? <Screen {...props} /> : placeholder
  }
  return LazyScreen
}
