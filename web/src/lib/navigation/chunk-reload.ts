// Chunk-load errors (docs/behaviour.md: Session, Messages; Vite's `vite:preloadError`): reload the page, at most once per 10,000 ms for the
// same path, the guard kept in sessionStorage; otherwise let the error reach the error page. Only while the user waits
// for a chunk (a screen still shown, the error page, the date picker: app/lazy-screen.tsx `awaitedLoad`; a screen the
// user left no longer counts, so its late failure does not reload the page under the next one): a chunk fetched in the
// background (the error page ahead of need, the QA panel, monitoring) that fails must not reload the page under a
// visitor who asked for nothing, possibly into the browser's offline page; its own caller takes the failure. Nor
// while the browser is offline.
import { RELOAD_GUARD_MS } from '../../session/constants.ts'
import type { ReloadGuard, StoredValue } from '../../session/token-storage.ts'

/**
 * Pure: whether to reload `path` now, and the guard to store.
 * @example
 * decideReload({}, '/help', 50_000) // { reload: true, guard: { '/help': 50_000 } }
 */
export function decideReload(
  guard: ReloadGuard,
  path: string,
  now: number,
): { reload: boolean; guard: ReloadGuard } {
  const last = guard[path]
  if (last !== undefined && now - last >= 0 && now - last < RELOAD_GUARD_MS) return { reload: false, guard }
  // Keep only recent entries, so the stored guard stays small.
  const recent = Object.fromEntries(Object.entries(guard).filter(([, at]) => now - at < RELOAD_GUARD_MS))
  return { reload: true, guard: { ...recent, [path]: now } }
}

export interface ChunkReloadOptions {
  target: Pick<Window, 'addEventListener' | 'removeEventListener'>
  guard: StoredValue<ReloadGuard>
  now: () => number
  getPath: () => string
  reload: () => void
  /** Whether a chunk the user waits for is on its way. */
  waiting: () => boolean
  /** Whether the browser thinks it is online (navigator.onLine): false only when it surely is not. */
  online: () => boolean
}

/** Listens for `vite:preloadError`; returns a function that stops listening. */
export function installChunkReload({
  target,
  guard,
  now,
  getPath,
  reload,
  waiting,
  online,
}: ChunkReloadOptions): () => void {
  const onPreloadError = (event: Event) => {
    if (!waiting()) return // a background fetch: not prevented, so it fails to its caller
    // Offline, a reload would replace the app, and what was typed, with the browser's offline page: the error page
    // shows instead, and the next navigation tries the chunk again.
    if (!online()) return
    const decision = decideReload(guard.get() ?? {}, getPath(), now())
    if (!decision.reload) return // not prevented: the import fails and the error page shows
    guard.set(decision.guard)
    event.preventDefault()
    reload()
  }
  target.addEventListener('vite:preloadError', onPreloadError)
  return () => target.removeEventListener('vite:preloadError', onPreloadError)
}
