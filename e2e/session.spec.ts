// The session rules of docs/behaviour.md: Session, Calls, in a real browser.
import { callAppApiAtOnce } from './app-client.ts'
import { refreshSettled } from './held-answers.ts'
import {
  compareTokens,
  describeCalls,
  expect,
  goHomeByLink,
  landmarkOf,
  NO_TOKENS,
  readTokens,
  ROTATED,
  signInThroughForm,
  test,
  toasts,
} from './fixtures.ts'
import {
  expectRefreshAtInterval,
  REFRESH_INTERVAL_MS,
  startSessionOnPausedClock,
  startSession,
} from './session-start.ts'

test('the periodic refresh: one after 300 s, with rotated tokens; none once the tokens are gone', async ({
  page,
  account,
  mock,
}) => {
  const signedIn = await startSessionOnPausedClock(page, mock, account)
  await expectRefreshAtInterval(page, signedIn)

  await page.evaluate(() =>
    ['accessToken', 'refreshToken', 'serviceToken'].forEach((key) => sessionStorage.removeItem(key)),
  )
  await page.clock.runFor(3 * REFRESH_INTERVAL_MS)
  await refreshSettled(page)
  expect(await signedIn.refreshes(), 'no refresh once the tokens are gone').toEqual(['refreshToken 200'])
  expect(await readTokens(page)).toEqual(NO_TOKENS)
})

test('20 calls meeting token_expired at once share one refresh, and all succeed', async ({
  page,
  account,
  mock,
}) => {
  const { before, since } = await startSession(page, mock, account)
  // The refresh answers a second late, so every one of the 20 401s arrives while it is still running.
  await mock.arm({ name: 'latency', operation: 'refreshToken', delay_ms: 1000, email: account.email })
  await mock.arm({ name: 'access-token-expired', times: 20, operation: 'getMe', email: account.email })

  const results = await callAppApiAtOnce(page, '/api/me', 20)

  const calls = describeCalls(await mock.requests(account.email, since), ['getMe', 'refreshToken'])
  expect(
    calls.filter((call) => call.startsWith('refreshToken')),
    'one refresh',
  ).toEqual(['refreshToken 200'])
  expect(results, 'every caller got its answer').toEqual(
    Array.from({ length: 20 }, () => ({ status: 200, email: account.email })),
  )
  expect(calls.filter((call) => call === 'getMe 401')).toHaveLength(20)
  expect(
    calls.filter((call) => call === 'getMe 200'),
    'each retried once',
  ).toHaveLength(20)
  await expect(page).toHaveURL('/')
  await expect(toasts(page)).toHaveCount(0)
  expect(compareTokens(before, await readTokens(page))).toEqual(ROTATED)
})

test('a GET answered 503 once is retried once and succeeds', async ({ page, account, mock }) => {
  await signInThroughForm(page, account)
  const since = await mock.lastSeq()
  await mock.arm({ name: 'server-error', operation: 'getMe', email: account.email })
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
  await expect(landmarkOf(page, '/help', account)).toBeVisible()
  await goHomeByLink(page)

  await expect(landmarkOf(page, '/', account)).toBeVisible()
  expect(describeCalls(await mock.requests(account.email, since), ['getMe'])).toEqual([
    'getMe 503',
    'getMe 200',
  ])
  await expect(toasts(page)).toHaveCount(0)
})

test('a POST answered 503 is not sent again', async ({ page, account, mock }) => {
  await page.goto('/login')
  const since = await mock.lastSeq()
  await mock.arm({ name: 'server-error', operation: 'login', email: account.email })
  await page.getByLabel('E-mail', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()

  // Once the call has settled (the loading bar goes once nothing is in flight), it was sent exactly once.
  const logins = async () => describeCalls(await mock.requests(account.email, since), ['login'])
  await expect.poll(logins).not.toEqual([])
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toBeHidden()
  expect(await logins()).toEqual(['login 503'])
  await expect(page.getByRole('alert')).toHaveText('The server had a problem. Please try again.')
  await expect(page).toHaveURL('/login')
  expect(await readTokens(page)).toEqual(NO_TOKENS)
})

test('the session call failing is an empty session: the visitor is sent to sign in', async ({
  page,
  account,
  mock,
}) => {
  await signInThroughForm(page, account)
  const since = await mock.lastSeq()
  await mock.arm({ name: 'session-unavailable', email: account.email })
  await page.reload()

  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/')}`)
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0)
  await expect(toasts(page)).toHaveCount(0)
  const sessionCalls = describeCalls(await mock.requests(account.email, since), ['getSession'])
  expect(sessionCalls, 'asked once, not retried').toEqual(['getSession 500'])
})

test('users with the legacy field names (userId, emailId) are still greeted by name', async ({
  page,
  account,
  mock,
}) => {
  await mock.arm({ name: 'legacy-user-fields', until_cleared: true, email: account.email })
  const since = await mock.lastSeq()
  await signInThroughForm(page, account) // waits for "Welcome, <name>"

  await expect(page.getByRole('navigation', { name: 'Main' }).getByText(account.name)).toBeVisible()
  await expect(page.getByText(account.email, { exact: true })).toBeVisible() // the address, read from emailId
  const shaped = (await mock.requests(account.email, since))
    .filter((entry) => entry.operation === 'login' || entry.operation === 'getMe')
    .map((entry) => `${entry.operation} ${entry.scenario ?? 'plain'}`)
  expect(shaped, 'the answers really were in the legacy shape').toEqual([
    'login legacy-user-fields',
    'getMe legacy-user-fields',
  ])
})
