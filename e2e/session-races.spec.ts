// A session ends once and stays ended (docs/session-life-cycle.md), in one tab and across tabs.
// Late answers are held in the browser (held-answers.ts), so "after the ending" is certain.
import type { Page } from '@playwright/test'
import {
  compareTokens,
  describeCalls,
  expect,
  goHomeByLink,
  landmarkOf,
  NO_TOKENS,
  readTokens,
  recordToasts,
  ROTATED,
  signInThroughForm,
  test,
  toasts,
  toastsShown,
  type Account,
} from './fixtures.ts'
import { holdAnswer, refreshSettled } from './held-answers.ts'
import { startSessionOnPausedClock } from './session-start.ts'

const REFRESH_FAILED = 'Session expired. Please login again.' // the catalogue's texts, written here on purpose
const DENIED = 'Access to this account was denied.' // the mock server's default message of unauthorized-other
const INVALID = 'Invalid authentication. Please login again.'
const LOGIN_AGAIN = `/login?redirect=${encodeURIComponent('/')}`

/** A reload of `/` now lands on sign-in: nothing of the ended session was kept. */
async function expectStaysSignedOut(page: Page): Promise<void> {
  await page.goto('/')
  await expect(page).toHaveURL(LOGIN_AGAIN)
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  expect(await readTokens(page)).toEqual(NO_TOKENS)
}

test.beforeEach(async ({ context }) => recordToasts(context))

async function logOutByLink(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log out' }).click()
}

async function openHomeAgain(page: Page, account: Account): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
  await expect(landmarkOf(page, '/help', account)).toBeVisible()
  await goHomeByLink(page)
}

for (const { scenario, toast } of [
  { scenario: 'unauthorized-other', toast: DENIED },
  { scenario: 'access-token-invalid', toast: INVALID },
] as const) {
  test(`a forced sign-out (${scenario}) during the start-up refresh: its late answer writes nothing back`, async ({
    page,
    account,
    mock,
  }) => {
    await signInThroughForm(page, account)
    const since = await mock.lastSeq()
    await mock.arm({ name: scenario, operation: 'getMe', email: account.email })
    const refresh = await holdAnswer(page, '**/api/refresh_token')
    await page.reload() // start-up: the session call, the refresh (held), then home's GET /api/me (refused)

    await expect(toasts(page)).toHaveText([toast])
    await expect(page).toHaveURL('/login')
    expect(await readTokens(page)).toEqual(NO_TOKENS)
    await refresh.served // the server did rotate: the answer is on the wire
    refresh.release()
    await refreshSettled(page)

    expect(await readTokens(page), 'the late pair is not written back').toEqual(NO_TOKENS)
    expect(await toastsShown(page), 'the toast, once').toEqual([toast])
    const calls = describeCalls(await mock.requests(account.email, since), ['refreshToken', 'getMe'])
    expect(calls.sort()).toEqual(['getMe 401', 'refreshToken 200'])
    await expectStaysSignedOut(page)
  })
}

test('log-out while the start-up refresh is in flight', async ({ page, account, mock }) => {
  await signInThroughForm(page, account)
  const since = await mock.lastSeq()
  const refresh = await holdAnswer(page, '**/api/refresh_token')
  await page.reload()
  await expect(landmarkOf(page, '/', account)).toBeVisible()
  await refresh.served

  await logOutByLink(page)
  await expect(page).toHaveURL('/login')
  refresh.release()
  await refreshSettled(page)

  expect(await readTokens(page)).toEqual(NO_TOKENS)
  expect(await toastsShown(page)).toEqual([])
  expect(describeCalls(await mock.requests(account.email, since), ['refreshToken', 'deleteSession'])).toEqual(
    ['refreshToken 200', 'deleteSession 200'],
  )
  await expectStaysSignedOut(page)
})

test('log-out while the refresh for an expired token is in flight', async ({ page, account, mock }) => {
  await signInThroughForm(page, account)
  const since = await mock.lastSeq()
  await mock.arm({ name: 'access-token-expired', operation: 'getMe', email: account.email })
  const refresh = await holdAnswer(page, '**/api/refresh_token')
  await openHomeAgain(page, account) // GET /api/me: 401 token_expired, then the refresh (held)
  await refresh.served

  await logOutByLink(page)
  await expect(page).toHaveURL('/login')
  refresh.release()
  await refreshSettled(page)

  expect(await readTokens(page)).toEqual(NO_TOKENS)
  expect(await toastsShown(page)).toEqual([])
  const calls = describeCalls(await mock.requests(account.email, since), [
    'refreshToken',
    'getMe',
    'deleteSession',
  ])
  expect(calls.filter((call) => call.startsWith('getMe'))).toEqual(['getMe 401']) // never retried
  expect(calls.filter((call) => call.startsWith('refreshToken'))).toEqual(['refreshToken 200'])
  await expectStaysSignedOut(page)
})

test('log-out while the retried call is in flight', async ({ page, account, mock }) => {
  await signInThroughForm(page, account)
  const since = await mock.lastSeq()
  await mock.arm({ name: 'access-token-expired', operation: 'getMe', email: account.email })
  let seen = 0
  const retry = await holdAnswer(page, '**/api/me', () => (seen += 1) === 2) // the second GET /api/me: the retry
  await openHomeAgain(page, account)
  await retry.served

  await logOutByLink(page)
  await expect(page).toHaveURL('/login')
  const retried = page.waitForEvent('requestfinished', (request) => request.url().endsWith('/api/me'))
  retry.release()
  await retried

  expect(await readTokens(page)).toEqual(NO_TOKENS)
  expect(await toastsShown(page)).toEqual([])
  await expect(page).toHaveURL('/login')
  const calls = describeCalls(await mock.requests(account.email, since), ['refreshToken', 'getMe'])
  expect(calls).toEqual(['getMe 401', 'refreshToken 200', 'getMe 200'])
  await expectStaysSignedOut(page)
})

test("a forced sign-out in one tab while another tab refreshes: it does not take the other tab's pair", async ({
  page,
  account,
  mock,
}) => {
  await signInThroughForm(page, account)
  const since = await mock.lastSeq()
  const refresh = await holdAnswer(page.context(), '**/api/refresh_token')
  // window.open gives the new tab a copy of this tab's sessionStorage: its start-up refresh is held.
  const [copy] = await Promise.all([
    page.context().waitForEvent('page'),
    page.evaluate(() => void window.open('/', '_blank')),
  ])
  await refresh.served
  await expect(landmarkOf(copy, '/', account)).toBeVisible() // its own GET /api/me is done (old token, still good)
  await mock.arm({ name: 'unauthorized-other', operation: 'getMe', email: account.email })
  await openHomeAgain(page, account)
  await expect(toasts(page)).toHaveText([DENIED])
  await expect(page).toHaveURL('/login')

  refresh.release()
  await refreshSettled(copy)
  await expect(landmarkOf(copy, '/', account)).toBeVisible()
  const copied = await readTokens(copy)
  expect(copied.accessToken).not.toBeNull()
  expect(await readTokens(page), 'the signed-out tab adopts nothing').toEqual(NO_TOKENS)
  expect(await toastsShown(page)).toEqual([DENIED])
  expect(await toastsShown(copy)).toEqual([])
  expect(describeCalls(await mock.requests(account.email, since), ['refreshToken'])).toEqual([
    'refreshToken 200',
  ])
  await expectStaysSignedOut(page)
})

test("a log-out in another tab while this tab's start-up session call is in flight", async ({
  page,
  account,
  mock,
}) => {
  await signInThroughForm(page, account)
  const since = await mock.lastSeq()
  const sessionCall = await holdAnswer(
    page.context(),
    '**/api/_auth/session',
    (request) => request.method() === 'GET',
  )
  const [copy] = await Promise.all([
    page.context().waitForEvent('page'),
    page.evaluate(() => void window.open('/', '_blank')),
  ])
  await sessionCall.served // answered while still signed in: it carries the user
  // the copy's start-up refresh (the first tab adopts it), done before the log-out
  await expect
    .poll(async () => describeCalls(await mock.requests(account.email, since), ['refreshToken']))
    .toEqual(['refreshToken 200'])
  await refreshSettled(copy)

  await logOutByLink(page)
  await expect(page).toHaveURL('/login')
  await expect
    .poll(() => readTokens(copy), 'the copy ended its session on hearing of the log-out')
    .toEqual(NO_TOKENS)
  const answered = copy.waitForEvent('requestfinished', (request) =>
    request.url().endsWith('/api/_auth/session'),
  )
  sessionCall.release()
  await answered

  await expect(copy).toHaveURL('/login')
  await expect(copy.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  expect(await readTokens(copy)).toEqual(NO_TOKENS)
  expect(await toastsShown(copy)).toEqual([])
  expect(await toastsShown(page)).toEqual([])
  expect(describeCalls(await mock.requests(account.email, since), ['refreshToken', 'deleteSession'])).toEqual(
    ['refreshToken 200', 'deleteSession 200'],
  )
  await expectStaysSignedOut(copy)
})

test('expiry while a refresh is in flight: the refused call waits for it, one refresh in all', async ({
  page,
  account,
  mock,
}) => {
  const { before, since } = await startSessionOnPausedClock(page, mock, account)
  const refresh = await holdAnswer(page, '**/api/refresh_token')
  await page.clock.runFor(300_000) // the periodic refresh leaves (held)
  await refresh.served
  await mock.arm({ name: 'access-token-expired', operation: 'getMe', email: account.email })
  await openHomeAgain(page, account) // GET /api/me: 401 token_expired, while the refresh is in flight

  await expect
    .poll(async () => describeCalls(await mock.requests(account.email, since), ['getMe']))
    .toEqual(['getMe 401'])
  refresh.release()
  await expect(landmarkOf(page, '/', account)).toBeVisible()
  await refreshSettled(page)
  await expect
    .poll(async () => describeCalls(await mock.requests(account.email, since), ['refreshToken', 'getMe']))
    .toEqual(['refreshToken 200', 'getMe 401', 'getMe 200'])
  expect(await toastsShown(page)).toEqual([])
  expect(compareTokens(before, await readTokens(page))).toEqual(ROTATED)
})

test('a refresh whose answer is lost on the wire: one toast, signed out, no second refresh', async ({
  page,
  account,
  mock,
  allowedConsoleErrors,
}) => {
  allowedConsoleErrors.push(/Failed to load resource: net::ERR_EMPTY_RESPONSE/)
  await signInThroughForm(page, account)
  const since = await mock.lastSeq()
  await mock.arm({ name: 'access-token-expired', operation: 'getMe', email: account.email })
  await mock.arm({ name: 'answer-lost', operation: 'refreshToken', email: account.email })
  await openHomeAgain(page, account)

  await expect(toasts(page)).toHaveText([REFRESH_FAILED])
  await expect(page).toHaveURL('/login')
  await refreshSettled(page)
  expect(await readTokens(page)).toEqual(NO_TOKENS)
  const journal = await mock.requests(account.email, since)
  expect(describeCalls(journal, ['refreshToken', 'getMe'])).toEqual(['getMe 401', 'refreshToken 200'])
  expect(journal.find((entry) => entry.operation === 'refreshToken')?.scenario).toBe('answer-lost')
  expect(await toastsShown(page)).toEqual([REFRESH_FAILED])
  await expectStaysSignedOut(page)
})

test('a log-out in another tab while this tab shows the signed-in /update_password: quietly to /login', async ({
  page,
  account,
  mock,
}) => {
  await page.context().addInitScript(() => {
    const shown: string[] = []
    Object.defineProperty(window, '__pageAlerts', { value: shown })
    new MutationObserver(() => {
      for (const alert of document.querySelectorAll('[role="alert"]')) {
        const text = alert.textContent?.trim()
        if (text && alert.closest('[data-rht-toaster]') === null && !shown.includes(text)) shown.push(text)
      }
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })
  await signInThroughForm(page, account)
  await page.goto('/update_password')
  await expect(page.getByLabel('Current password')).toBeVisible()
  await refreshSettled(page)
  const since = await mock.lastSeq()
  const [copy] = await Promise.all([
    page.context().waitForEvent('page'),
    page.evaluate(() => void window.open('/', '_blank')),
  ])
  await expect(landmarkOf(copy, '/', account)).toBeVisible()
  await refreshSettled(copy)

  await logOutByLink(copy)
  await expect(copy).toHaveURL('/login')
  await expect(page).toHaveURL('/login')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  expect(await readTokens(page)).toEqual(NO_TOKENS)
  expect(await toastsShown(page)).toEqual([])
  const alerts = await page.evaluate(() => window.__pageAlerts ?? [])
  expect(alerts, 'no page says a reset was not started').toEqual([])
  expect(describeCalls(await mock.requests(account.email, since), ['refreshToken', 'deleteSession'])).toEqual(
    ['refreshToken 200', 'deleteSession 200'],
  )
})
