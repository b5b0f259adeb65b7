// Clocks (docs/session-life-cycle.md): the client schedules refreshes from relative times only.
// So a client clock an hour off still refreshes on time. Frozen timers: server-clock.spec.ts.
import {
  describeCalls,
  expect,
  goHomeByLink,
  landmarkOf,
  recordToasts,
  test,
  toastsShown,
} from './fixtures.ts'
import { refreshSettled } from './held-answers.ts'
import { expectRefreshAtInterval, REFRESH_INTERVAL_MS, startSessionOnPausedClock } from './session-start.ts'

const HOUR_MS = 3_600_000

for (const { label, skew } of [
  { label: 'an hour ahead of', skew: HOUR_MS },
  { label: 'an hour behind', skew: -HOUR_MS },
]) {
  test(`a client clock ${label} the server's: refreshes on time, never signs out early`, async ({
    page,
    context,
    account,
    mock,
  }) => {
    await recordToasts(context)
    const signedIn = await startSessionOnPausedClock(page, mock, account, skew)
    const { since, refreshes } = signedIn
    await expectRefreshAtInterval(page, signedIn)

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
    await expect(landmarkOf(page, '/help', account)).toBeVisible()
    await goHomeByLink(page)
    await expect(landmarkOf(page, '/', account)).toBeVisible()
    const calls = describeCalls(await mock.requests(account.email, since), ['getMe', 'refreshToken'])
    expect(calls, 'the new token works; nothing refused').toEqual(['refreshToken 200', 'getMe 200'])
    await page.clock.runFor(REFRESH_INTERVAL_MS)
    await refreshSettled(page)
    expect(await refreshes(), 'and again 300 s later').toEqual(['refreshToken 200', 'refreshToken 200'])
    await expect(page).toHaveURL('/')
    expect(await toastsShown(page)).toEqual([])
  })
}
