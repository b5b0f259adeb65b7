// A screen in a chunk of its own, loaded when first rendered. A state update rather than React.lazy and Suspense,
// whose reveal waits on a timer (a paused page clock would hold it). While a shown screen's chunk is loading the
// layout's loading bar shows; a chunk that fails to load reloads the page once (chunk-reload.ts), and otherwise
// throws at render, to the route's error boundary. The loads themselves are the page's ChunkLoads (chunk-loads.ts,
// made by main.tsx and read from the services).
import { useEffect, useState, type ComponentType, type ReactNode } from 'react'
import { useServices } from '../services/services.ts'
import type { ChunkLoader } from './chunk-loads.ts'

/**
 * @example
 * const HomePage = lazyScreen(() => import('../features/home/home-page.tsx'), (module) => module.HomePage)
 */
export function lazyScreen<M, P extends object>(
  load: ChunkLoader<M>,
  pick: (module: M) => ComponentType<P>,
  /** Shown while the chunk is on its way (a part of a screen, such as the date picker); nothing by default. */
  { placeholder = null }: { placeholder?: ReactNode } = {},
): ComponentType<P> {
  function LazyScreen(props: P) {
    const { chunks } = useServices()
    const [module, setModule] = useState<{ loaded: M } | null>(() => {
      const loaded = chunks.peek(load)
      return loaded === null ? null : { loaded }
    })
    const [failure, setFailure] = useState<{ error: unknown } | null>(null)
    useEffect(() => {
      if (module) return
      // The next visit asks again when this one left before the chunk was in.
      return chunks.awaitWhileShown(
        chunks.fetch(load),
        (loaded) => setModule({ loaded }),
        (error) => setFailure({ error }),
      )
    }, [chunks, module])
    if (failure) throw failure.error
    if (!module) return placeholder
    const Screen = pick(module.loaded)
    return <Screen {...props} />
  }
  return LazyScreen
}
