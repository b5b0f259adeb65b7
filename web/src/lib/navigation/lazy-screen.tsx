// A screen in a chunk of its own, loaded when first rendered. A state update, not React.lazy and Suspense:
// Suspense reveals on a timer, which a paused page clock would hold.
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
  /** Shown while the chunk loads; nothing by default. */
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
