// The page's first contentful paint, as a promise (docs/decisions/012-first-load.md). Work that can wait, waits for it.
// Lighthouse blames every request that ends before the largest paint, however small.

/** The longest wait for a paint the browser does not report. */
export const FIRST_PAINT_TIMEOUT_MS = 1_000

/** What waitForFirstPaint needs of the window. */
export interface FirstPaintTarget {
  document: Pick<Document, 'visibilityState'>
  performance: Pick<Performance, 'getEntriesByName'>
  PerformanceObserver?: Pick<typeof PerformanceObserver, 'supportedEntryTypes'> &
    (new (callback: PerformanceObserverCallback) => Pick<PerformanceObserver, 'observe' | 'disconnect'>)
  setTimeout(fn: () => void, ms: number): unknown
}

const FCP = 'first-contentful-paint'

/**
 * Resolves at the first contentful paint, or at once when none will come (hidden page, no paint reports, already
 * painted). Gives up after FIRST_PAINT_TIMEOUT_MS. Never rejects, never throws.
 * @example
 * await waitForFirstPaint(window)
 */
export function waitForFirstPaint(target: FirstPaintTarget): Promise<void> {
  return new Promise((resolve) => {
    const Observer = target.PerformanceObserver
    if (
      target.document.visibilityState !== 'visible' ||
      typeof Observer !== 'function' ||
      !Observer.supportedEntryTypes?.includes('paint') ||
      target.performance.getEntriesByName(FCP).length > 0
    )
      return resolve()
    let observer: Pick<PerformanceObserver, 'observe' | 'disconnect'>
    try {
      observer = new Observer((entries) => {
        if (entries.getEntriesByName(FCP).length === 0) return
        observer.disconnect()
        resolve()
      })
      observer.observe({ type: 'paint', buffered: true })
    } catch {
      // An engine that takes only `entryTypes`, or an extension that patched the API: no paint to wait for. Without
      // this, every API call would wait for a promise that never settles.
      return resolve()
    }
    target.setTimeout(() => {
      observer.disconnect()
      resolve()
    }, FIRST_PAINT_TIMEOUT_MS)
  })
}

/**
 * This page's first paint, one promise shared by every caller. main.tsx makes one per page and hands it out.
 * @example
 * const afterFirstPaint = createFirstPaint(window as unknown as FirstPaintTarget)
 * await afterFirstPaint()
 */
export function createFirstPaint(target: FirstPaintTarget): () => Promise<void> {
  let firstPaint: Promise<void> | null = null
  return () => (firstPaint ??= waitForFirstPaint(target))
}
