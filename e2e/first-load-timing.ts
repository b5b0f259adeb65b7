// What the page itself saw of its first load: when the form appeared, when load ended, and each request.
// Times are the page's own performance.now(), so they compare exactly.
import type { Page } from '@playwright/test'

export interface FirstLoad {
  formAt: number
  loadEnd: number
  resources: { path: string; startTime: number }[]
}

/** Call before page.goto: marks the moment a `<form>` with a submit button is first in the document. */
export async function markFormAppearance(page: Page): Promise<void> {
  // A string, not a function: the page must run it as written.
  await page.addInitScript(`{
    const observer = new MutationObserver(() => {
      if (document.querySelector('form button[type="submit"]') === null) return
      window.__formAt = performance.now()
      observer.disconnect()
    })
    observer.observe(document, { childList: true, subtree: true })
  }`)
}

/** The first load as the page saw it; `formAt` is Infinity unless markFormAppearance was called. */
export async function readFirstLoad(page: Page, { marked = true } = {}): Promise<FirstLoad> {
  if (marked) await page.waitForFunction(() => '__formAt' in window)
  return page.evaluate(() => {
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming
    return {
      formAt: (window as unknown as { __formAt?: number }).__formAt ?? Infinity,
      loadEnd: navigation.loadEventEnd,
      resources: performance
        .getEntriesByType('resource')
        .map(({ name, startTime }) => ({ path: new URL(name).pathname, startTime })),
    }
  })
}
