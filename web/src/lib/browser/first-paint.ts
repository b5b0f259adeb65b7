// The page's first contentful paint, as a promise (docs/decisions/012-first-load.md: "Nothing but the screen before
// the first paint"). Work that can wait a frame waits for it: the API's calls (the start-up session call and refresh),
// the toast area's chunk, the idle-time chunks. Lighthouse's simulation counts every request that ends before the
// largest paint as a cause of it, so such requests, however small, delayed the figure it reports.

/** The longest wait for a paint the browser does not report (it always reports one within a frame or two here). */
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
 * Resolves at the first contentful paint, or at once when there is none to wait for: a hidden page (a tab opened in
 * the background paints nothing until shown), a browser that does not report paints (or throws when asked to), or a
 * paint already past; and after FIRST_PAINT_TIMEOUT_MS at the latest. Never rejects, never throws.
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
 * This page's first paint (waitForFirstPaint of `target`), one promise for every caller, asked for at the first call.
 * main.tsx makes one per page and hands it to whatever waits for the paint (the API's calls, the toast area, the
 * idle-time chunks).
 * @example
 * const afterFirstPaint = createFirstPaint(window as unknown as FirstPaintTarget)
 * await afterFirstPaint()
 */
export function createFirstPaint(target: FirstPaintTarget): () => Promise<void> {
  let firstPaint: Promise<void> | null = null
  return () => (firstPaint ??= waitForFirstPaint(target))
}
