// A fixed-window rate limiter per key, on the injected clock, with a bounded number of windows. When full it drops
// a refusing window last, so filling it with fresh keys gives no one a fresh budget (docs/security/surface.md).
import { RATE_LIMIT_CAPACITY } from '../../shared/constants.ts'
import type { Clock } from '../../shared/clock.ts'
import type { WindowLimit } from '../../shared/rule-settings.ts'

/** At most `max` in any window of `windowMs`: the shape the rules' settings state (shared/rule-settings.ts). */
export type RateLimit = WindowLimit

export interface RateLimiter {
  /** Counts a hit; returns 0 when allowed, else the seconds to wait. */
  hit(key: string): number
  /** The hits counted in the key's live window (0 when it has none), without counting one. */
  count(key: string): number
  /** Drops the key's window. */
  forget(key: string): void
  clear(): void
  /** How many windows it holds (for tests and the bench). */
  size(): number
}

interface Window {
  start: number
  count: number
}

export function createRateLimiter(
  clock: Clock,
  limit: RateLimit,
  capacity = RATE_LIMIT_CAPACITY,
): RateLimiter {
  // Two maps, each in insertion order (oldest first): windows still allowing hits, and windows refusing them. A
  // window moves to `refusing` when it runs out, so eviction never has to search for an open one.
  const open = new Map<string, Window>()
  const refusing = new Map<string, Window>()
  const expired = (window: Window, now: number) => now - window.start >= limit.windowMs

  function dropExpiredFront(map: Map<string, Window>, now: number): void {
    for (const [key, window] of map) {
      if (!expired(window, now)) return
      map.delete(key)
    }
  }

  function makeRoom(now: number): void {
    if (open.size + refusing.size < capacity) return
    dropExpiredFront(open, now)
    dropExpiredFront(refusing, now)
    while (open.size + refusing.size >= capacity) {
      const victim = open.size > 0 ? open : refusing
      victim.delete(victim.keys().next().value as string)
    }
  }

  return {
    hit(key) {
      const now = clock.now()
      const current = refusing.get(key) ?? open.get(key)
      if (!current || expired(current, now)) {
        open.delete(key)
        refusing.delete(key)
        makeRoom(now)
        open.set(key, { start: now, count: 1 })
        return 0
      }
      current.count += 1
      if (current.count <= limit.max) return 0
      if (open.delete(key)) refusing.set(key, current)
      return Math.max(1, Math.ceil((current.start + limit.windowMs - now) / 1000))
    },
    count(key) {
      const current = refusing.get(key) ?? open.get(key)
      return current && !expired(current, clock.now()) ? current.count : 0
    },
    forget(key) {
      open.delete(key)
      refusing.delete(key)
    },
    clear() {
      open.clear()
      refusing.clear()
    },
    size: () => open.size + refusing.size,
  }
}
