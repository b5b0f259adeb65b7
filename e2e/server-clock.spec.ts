// Tests that move the mock server's one clock, so they run alone, after every other test (playwright.config.ts).
// Each puts the clock back when done.
import {
  compareTokens,
  describeCalls,
  expect,
  goHomeByLink,
  landmarkOf,
  readTokens,
  recordToasts,
  ROTATED,
  signInThroughForm,
  test,
  toasts,
  toastsShown,
  type Account,
} from './fixtures.ts'
import type { Page } from '@playwright/test'
import { refreshSettled } from './held-answers.ts'
import { startSession, startSessionOnPausedClock } from './session-start.ts'

const ACCESS_TOKEN_TTL_MS = 15 * 60_000 // ADR 004: access tokens live 15 minutes
const REFRESH_GRACE_MS = 10_000 // ADR 004: the retired refresh token's grace window

test.afterEach(async ({ mock }) => {
  await mock.setClock({ now: new Date().toISOString() })
})

/** Opens home again through the app's links: one GET /api/me. */
async function reloadHomeByLinks(page: Page, account: Account): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
  await expect(landmarkOf(page, '/help', account)).toBeVisible()
  await goHomeByLink(page)
  await expect(landmarkOf(page, '/', account)).toBeVisible()
}

test('a natural expiry: the next call refreshes once and succeeds, with no toast', async ({
  page,
  account,
  mock,
}) => {
  await signInThroughForm(page, account)
  const before = await readTokens(page)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
  await expect(landmarkOf(page, '/help', account)).toBeVisible()
  const since = await mock.lastSeq()
  await mock.advanceClock(ACCESS_TOKEN_TTL_MS + 1_000)

  await goHomeByLink(page)
  await expect(landmarkOf(page, '/', account)).toBeVisible()
  // Home's calls (GET /api/me and any other) all meet the expiry, share one refresh and are retried.
  const journal = await mock.requests(account.email, since)
  expect(describeCalls(journal, ['getMe', 'refreshToken'])).toEqual([
    'getMe 401',
    'refreshToken 200',
    'getMe 200',
  ])
  expect(describeCalls(journal).filter((call) => call.startsWith('refreshToken'))).toEqual([
    'refreshToken 200',
  ])
  expect(
    journal.filter((entry) => entry.scenario),
    'a real expiry, not a scenario',
  ).toEqual([])
  await expect(toasts(page)).toHaveCount(0)
  expect(compareTokens(before, await readTokens(page))).toEqual(ROTATED)
})

test('a duplicated tab (its sessionStorage copied) signs neither tab out', async ({
  page,
  account,
  mock,
}) => {
  const { before: first, since } = await startSession(page, mock, account)

  // window.open gives the new tab a copy of this tab's sessionStorage: both hold the same refresh token.
  const [copy] = await Promise.all([
    page.context().waitForEvent('page'),
    page.evaluate(() => void window.open('/', '_blank')),
  ])
  await expect(landmarkOf(copy, '/', account)).toBeVisible()
  // The copy refreshed at start-up; the first tab adopts the rotation instead of keeping the retired token.
  await expect.poll(async () => compareTokens(first, await readTokens(copy))).toEqual(ROTATED)
  await expect.poll(async () => readTokens(page)).toEqual(await readTokens(copy))

  // Past the grace window, a retired refresh token would revoke the whole session (and sign both tabs out).
  await mock.advanceClock(REFRESH_GRACE_MS + 1_000)
  await mock.arm({ name: 'access-token-expired', operation: 'getMe', email: account.email })
  await reloadHomeByLinks(page, account) // 401, a refresh from the first tab, a retry
  await expect.poll(async () => readTokens(copy)).toEqual(await readTokens(page))

  await mock.advanceClock(REFRESH_GRACE_MS + 1_000)
  await mock.arm({ name: 'access-token-expired', operation: 'getMe', email: account.email })
  await reloadHomeByLinks(copy, account) // and now one from the copy
  await expect.poll(async () => readTokens(page)).toEqual(await readTokens(copy))

  const refreshes = describeCalls(await mock.requests(account.email, since), ['refreshToken'])
  expect(refreshes).toEqual(['refreshToken 200', 'refreshToken 200', 'refreshToken 200'])
  for (const tab of [page, copy]) {
    await expect(tab).toHaveURL('/')
    await expect(toasts(tab)).toHaveCount(0)
  }
  await reloadHomeByLinks(page, account)
  await reloadHomeByLinks(copy, account)
})

/** What a page sees when its tab is hidden or shown again (Playwright cannot hide a tab itself). */
async function setVisibility(page: Page, state: 'hidden' | 'visible'): Promise<void> {
  await page.evaluate((next) => {
    Object.defineProperty(document, 'visibilityState', { value: next, configurable: true })
    Object.defineProperty(document, 'hidden', { value: next === 'hidden', configurable: true })
    document.dispatchEvent(new Event('visibilitychange'))
  }, state)
}

test('a tab whose timers were frozen for twenty minutes wakes with an expired token: one refresh, still signed in', async ({
  page,
  context,
  account,
  mock,
}) => {
  await recordToasts(context)
  const { before, since } = await startSessionOnPausedClock(page, mock, account)

  await setVisibility(page, 'hidden')
  await mock.advanceClock(20 * 60_000) // the access token (15 minutes) has expired; the refresh token lives
  // Frozen timers: nothing fired for twenty minutes; on waking, the overdue 300 s interval fires once.
  await page.clock.fastForward(20 * 60_000)
  await setVisibility(page, 'visible')
  await reloadHomeByLinks(page, account) // calls made on waking meet the expired token too
  await refreshSettled(page)

  const journal = await mock.requests(account.email, since)
  expect(describeCalls(journal, ['refreshToken']), 'exactly one refresh').toEqual(['refreshToken 200'])
  expect(compareTokens(before, await readTokens(page))).toEqual(ROTATED)
  await expect(page).toHaveURL('/')
  expect(await toastsShown(page), 'no sign-out').toEqual([])
})
