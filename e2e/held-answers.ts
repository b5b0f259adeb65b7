// Late answers on demand: the server answers, but the browser gets it only when the test says so.
// So "the answer arrives after the ending" is certain without guessing a delay.
import type { BrowserContext, Page, Request } from '@playwright/test'

export interface HeldAnswer {
  /** Resolves once the server has answered (its work is done: a refresh has rotated). */
  served: Promise<void>
  /** Lets the held answer through to the page. */
  release(): void
}

/**
 * Holds the answer of the first request to `url` that `matches` (every other request passes untouched).
 * @example
 * const refresh = await holdAnswer(page, '**\/api/refresh_token')
 * await page.reload() // the start-up refresh leaves, the server answers, the page waits
 * await refresh.served
 * refresh.release()
 */
export async function holdAnswer(
  target: Page | BrowserContext,
  url: string,
  matches: (request: Request) => boolean = () => true,
): Promise<HeldAnswer> {
  let release!: () => void
  let served!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const answered = new Promise<void>((resolve) => (served = resolve))
  let taken = false
  await target.route(url, async (route) => {
    if (taken || !matches(route.request())) return route.fallback()
    taken = true
    const response = await route.fetch()
    served()
    await released
    // The page may have gone meanwhile (a reload): then there is no one left to answer.
    await route.fulfill({ response }).catch(() => {})
  })
  return { served: answered, release }
}

/**
 * Waits until no refresh is running in `page`, by taking the refresh's Web Lock.
 * The app holds it until the refresh's answer is dealt with.
 */
export async function refreshSettled(page: Page): Promise<void> {
  await page.evaluate(() => navigator.locks.request('auth-shell:refresh', () => undefined))
}

/** Whether a refresh is running in some tab of this browser (the lock is held). */
export async function refreshRunning(page: Page): Promise<boolean> {
  return page.evaluate(async () =>
    ((await navigator.locks.query()).held ?? []).some((lock) => lock.name === 'auth-shell:refresh'),
  )
}
