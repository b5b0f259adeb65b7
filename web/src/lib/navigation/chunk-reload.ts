// Chunk-load errors (docs/behaviour.md: Session, Messages): reload the page, at most once per 10,000 ms for the same
// path, the guard kept in sessionStorage; otherwise let the error reach the error page. Only for a chunk the user is
// still waiting for (a screen still shown, the error page, the date picker: `awaitWhileShown` in
// chunk-loads.ts, which calls the function made here when such a load fails): a chunk fetched in the background
// (the error page ahead of need, the QA panel, the toast area, monitoring) or a screen the user has left, that fails,
// must not reload the page under a visitor who asked for nothing, possibly into the browser's offline page; its own
// caller takes the failure. Nor while the browser is offline. Deciding per load, where the failure arrives, rather
// than in Vite's `vite:preloadError` (which does not say which load failed) keeps a left screen's failure from
// reloading the page while the next screen's chunk is still on its way.
import { RELOAD_GUARD_MS } from '../config/constants.ts'
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
  guard: StoredValue<ReloadGuard>
  now: () => number
  getPath: () => string
  reload: () => void
  /** Whether the browser thinks it is online (navigator.onLine): false only when it surely is not. */
  online: () => boolean
}

/**
 * The rule for a chunk the user waits for that failed to load: reloads the page and returns true, or returns false
 * (within the guard's window, or offline) and the failure goes on to the error page.
 * @example
 * createChunkLoads({ reloadForFailedChunk: createChunkReload({ guard, now: Date.now, getPath, reload, online }) })
 */
export function createChunkReload({
  guard,
  now,
  getPath,
  reload,
  online,
}: ChunkReloadOptions): () => boolean {
  return () => {
    // Offline, a reload would replace the app, and what was typed, with the browser's offline page: the error page
    // shows instead, and the next navigation tries the chunk again.
    if (!online()) return false
    const decision = decideReload(guard.get() ?? {}, getPath(), now())
    if (!decision.reload) return false
    guard.set(decision.guard)
    reload()
    return true
  }
}
