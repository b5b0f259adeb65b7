// A bounded map of short-lived entries, on the injected clock: past `max` the oldest goes first, so no caller can
// grow the provider's memory without bound (docs/decisions/022-openid-provider.md).
import type { Clock } from './clock.ts'

export interface ExpiringMap<V> {
  set(key: string, value: V, ttlMs: number): void
  /** The live entry, or undefined when unknown or past its lifetime. */
  get(key: string): V | undefined
  delete(key: string): void
  /** Removes and returns every live entry whose value matches. */
  deleteWhere(match: (value: V) => boolean): V[]
  clear(): void
  readonly size: number
}

/**
 * @example
 * const codes = createExpiringMap<Grant>(clock, 10_000)
 * codes.set(hashToken(code), grant, 120_000)
 */
export function createExpiringMap<V>(clock: Clock, max: number): ExpiringMap<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>()
  const sweep = () => {
    const now = clock.now()
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key)
  }
  return {
    set(key, value, ttlMs) {
      entries.delete(key)
      if (entries.size >= max) sweep()
      // Still full of live entries: the oldest goes (a Map iterates in insertion order).
      if (entries.size >= max) entries.delete(entries.keys().next().value!)
      entries.set(key, { value, expiresAt: clock.now() + ttlMs })
    },
    get(key) {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (entry.expiresAt > clock.now()) return entry.value
      entries.delete(key)
      return undefined
    },
    delete: (key) => void entries.delete(key),
    deleteWhere(match) {
      const removed: V[] = []
      for (const [key, entry] of entries) {
        if (!match(entry.value)) continue
        entries.delete(key)
        removed.push(entry.value)
      }
      return removed
    },
    clear: () => entries.clear(),
    get size() {
      return entries.size
    },
  }
}
