// A fixed-window rate limiter keyed by client address (or any key), on the injected clock.
import type { Clock } from './clock.ts'

export interface RateLimit {
  max: number
  windowMs: number
}

export interface RateLimiter {
  /** Counts a hit; returns 0 when allowed, else the seconds to wait. */
  hit(key: string): number
  clear(): void
}

export function createRateLimiter(clock: Clock, limit: RateLimit): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>()
  return {
    hit(key) {
      const now = clock.now()
      const current = windows.get(key)
      if (!current || now - current.start >= limit.windowMs) {
        windows.set(key, { start: now, count: 1 })
        if (windows.size > 50_000) windows.clear()
        return 0
      }
      current.count += 1
      if (current.count <= limit.max) return 0
      return Math.max(1, Math.ceil((current.start + limit.windowMs - now) / 1000))
    },
    clear: () => windows.clear(),
  }
}
