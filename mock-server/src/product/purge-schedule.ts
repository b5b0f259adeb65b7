// The purge of expired records runs before a call once the clock has moved PURGE_INTERVAL_MS (or back) since the
// last one. The seeded unverified account stays, as the README promises it (development only: production seeds
// nothing).
import { PURGE_INTERVAL_MS } from '../shared/constants.ts'
import type { DomainContext } from './domain/context.ts'
import { purgeExpired } from './domain/purge.ts'

export function createPurgeSchedule(
  domain: DomainContext,
  options: { keepUnverified: Set<string>; maxUnverified: number | undefined; onPurged(): void },
): () => Promise<void> {
  let lastPurge = -Infinity
  let purging: Promise<void> | null = null
  return async function purgeWhenDue(): Promise<void> {
    const now = domain.clock.now()
    if (now - lastPurge < PURGE_INTERVAL_MS && now >= lastPurge) return purging ?? undefined
    lastPurge = now
    purging = purgeExpired(domain, {
      keepUnverified: options.keepUnverified,
      ...(options.maxUnverified !== undefined && { maxUnverified: options.maxUnverified }),
    }).then((removed) => {
      if (removed > 0) options.onPurged()
    })
    await purging.finally(() => (purging = null))
  }
}
