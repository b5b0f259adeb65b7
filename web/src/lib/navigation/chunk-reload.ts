// Chunk-load errors (docs/behaviour.md: Session, Messages): reload once per 10,000 ms per path, else the error page.
// Only for a chunk the user still waits for, and never offline: a background chunk must not reload the page unasked.
// Decided per load, not in `vite:preloadError`, which does not say which load failed.
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
 * The rule for a failed chunk the user waits for. Reloads and returns true, or returns false for the error page.
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
    // Offline, a reload would swap the app and what was typed for the browser's offline page.
    if (!online()) return false
    const decision = decideReload(guard.get() ?? {}, getPath(), now())
    if (!decision.reload) return false
    guard.set(decision.guard)
    reload()
    return true
  }
}
