// The supporting services in the browser (issue 5), against the mock server's sinks: a thrown error reaches the
// error-reporting sink; a signed-in session reaches the recorder's sink with the user's e-mail as its id; a new
// build served while the app is open brings the new-version toast within the hour, and the next navigation loads it.
import { countDocumentLoads } from './chunks.ts'
import { expect, signInThroughForm, test } from './fixtures.ts'
import { readRecorderSessions, readSentryEvents, readServedBuild, serveBuild } from './services-fixtures.ts'

const QA_TEST_ERROR = 'QA panel: a test error'

test('a thrown error shows the error page and reaches the error-reporting sink', async ({
  page,
  account,
  request,
  allowedConsoleErrors,
}) => {
  // React and React Router log what the error page caught.
  allowedConsoleErrors.push(new RegExp(QA_TEST_ERROR), /The above error occurred/, /React Router caught/)
  const before = (await readSentryEvents(request)).filter(
    (event) => event.message === `Error: ${QA_TEST_ERROR}`,
  )
  await signInThroughForm(page, account)
  await page.getByRole('button', { name: 'QA panel' }).click()
  await page
    .getByRole('region', { name: 'QA panel' })
    .getByRole('button', { name: 'Throw a test error' })
    .click()
  await expect(page.getByRole('heading', { name: 'Internal Server Error', level: 1 })).toBeVisible()
  await expect
    .poll(async () =>
      (await readSentryEvents(request)).filter((event) => event.message === `Error: ${QA_TEST_ERROR}`),
    )
    .toHaveLength(before.length + 1)
  const event = (await readSentryEvents(request)).findLast((one) => one.message === `Error: ${QA_TEST_ERROR}`)
  expect(event).toMatchObject({
    type: 'event',
    level: 'error',
    environment: 'development',
    exception: [{ type: 'Error', value: QA_TEST_ERROR }],
  })
})

test("the recorder's identity: the user's e-mail as its id, with metadata; cleared at logout", async ({
  page,
  account,
  request,
  consoleLines,
}) => {
  await signInThroughForm(page, account)
  const mine = async () => (await readRecorderSessions(request)).find((one) => one.user_id === account.email)
  await expect
    .poll(async () => (await mine())?.metadata, { timeout: 20_000 })
    .toMatchObject({
      email: account.email,
      name: account.name,
      userId: expect.stringMatching(/.+/),
    })
  expect((await mine())?.project_key).toBe('mock-project')
  expect(consoleLines).toContain('User ID set')

  // OpenReplay sends no message for an empty id: clearing is the tracker's own state (and the log line).
  const before = consoleLines.length
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log out' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect.poll(() => consoleLines.slice(before)).toContain('User ID cleared (user not logged in)')
})

test('a new build: the info toast within the hour, and the next navigation loads it', async ({
  page,
  account,
  request,
}) => {
  const served = await readServedBuild(request)
  await page.clock.install()
  try {
    await signInThroughForm(page, account)
    const loads = countDocumentLoads(page)
    await serveBuild(request, `e2e-${Date.now().toString(36)}`)
    await page.clock.fastForward(3_600_000 - 60_000)
    await expect(page.getByText('A new version of the app is available.')).toBeHidden()
    await page.clock.fastForward(60_000)
    const toast = page.getByRole('status').filter({ hasText: 'A new version of the app is available.' })
    await expect(toast).toBeVisible()
    await expect(toast.getByRole('button', { name: 'Reload' })).toBeVisible()

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
    await expect(page).toHaveURL('/help')
    await expect(page.getByRole('heading', { name: 'Help', level: 1 })).toBeVisible()
    expect(loads.count).toBe(1) // a full page load, not a client-side navigation
  } finally {
    await serveBuild(request, served.id) // other tests of the run see the build they loaded as the newest again
  }
})
