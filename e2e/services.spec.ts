// The supporting services in the browser, against the mock server's sinks: error reporting, the recorder's identity,
// and the new-version toast. After any ending of the session, neither service carries the user.
import type { Page } from '@playwright/test'
import { abortChunk, countDocumentLoads } from './chunks.ts'
import {
  expect,
  goHomeByLink,
  landmarkOf,
  signInThroughForm,
  test,
  throwQaTestError,
  type Account,
  type MockControl,
} from './fixtures.ts'
import {
  collectSentEvents,
  flushRecorder,
  readRecorderSession,
  readServedBuild,
  waitForRecordingStart,
  type RecorderSession,
  type SentEvent,
} from './services-fixtures.ts'

const QA_TEST_ERROR = 'QA panel: a test error'

test('a thrown error shows the error page and reaches the error-reporting sink', async ({
  page,
  account,
  mock,
  allowedConsoleErrors,
}) => {
  // React and React Router log what the error page caught.
  allowedConsoleErrors.push(new RegExp(QA_TEST_ERROR), /The above error occurred/, /React Router caught/)
  const before = (await mock.sentryEvents()).filter((event) => event.message === `Error: ${QA_TEST_ERROR}`)
  await signInThroughForm(page, account)
  await throwQaTestError(page)
  await expect
    .poll(async () =>
      (await mock.sentryEvents()).filter((event) => event.message === `Error: ${QA_TEST_ERROR}`),
    )
    .toHaveLength(before.length + 1)
  const event = (await mock.sentryEvents()).findLast((one) => one.message === `Error: ${QA_TEST_ERROR}`)
  expect(event).toMatchObject({
    type: 'event',
    level: 'error',
    environment: 'development',
    exception: [{ type: 'Error', value: QA_TEST_ERROR }],
  })
})

test("the recorder's identity: the user's e-mail as its id, with metadata", async ({
  page,
  account,
  mock,
  consoleLines,
}) => {
  await signInThroughForm(page, account)
  const recording = await waitForRecordingOf(page, mock, account)
  expect(recording.project_key).toBe('mock-project')
  expect(consoleLines).toContain('User ID set')
})

/** The recording that carries `account`, once the sink has its user id and metadata. */
async function waitForRecordingOf(page: Page, mock: MockControl, account: Account) {
  const mine = async () => (await mock.recorderSessions()).find((one) => one.user_id === account.email)
  await expect
    .poll(
      async () => {
        await flushRecorder(page) // the metadata travels in a batch
        return (await mine())?.metadata
      },
      { message: `a recording of ${account.email} with its metadata` },
    )
    .toEqual({ email: account.email, name: account.name, userId: expect.stringMatching(/.+/) })
  return (await mine())!
}

/**
 * After the session ended, only the old recording carries the user; the new anonymous one takes the rest.
 */
async function expectRecordingWithoutUser(
  page: Page,
  mock: MockControl,
  { account, old, anonymousId }: { account: Account; old: RecorderSession; anonymousId: string },
) {
  expect(anonymousId).not.toBe(old.id)
  const batchesOf = async (id: string) => (await readRecorderSession(mock, id))?.batches ?? 0
  const recordUntilSent = async (act: () => Promise<void>) => {
    const before = await batchesOf(anonymousId)
    await act()
    await expect
      .poll(async () => (await flushRecorder(page), batchesOf(anonymousId)), {
        message: 'a batch of the anonymous recording',
      })
      .toBeGreaterThan(before)
  }
  // Navigate and click: the new recording gets it. What the old one flushed when it stopped arrived before that.
  await recordUntilSent(async () => {
    await page.getByRole('link', { name: 'Create an account' }).click()
    await expect(page).toHaveURL('/signup')
  })
  const oldBatches = await batchesOf(old.id)
  await recordUntilSent(async () => {
    await page.getByRole('banner').getByRole('link', { name: 'Auth shell' }).click()
    await expect(page).toHaveURL(/\/login/)
    await page.getByLabel('E-mail', { exact: true }).fill('someone-else@example.test')
  })
  expect(await batchesOf(old.id), 'batches of the old recording after the session ended').toBe(oldBatches)
  expect(await readRecorderSession(mock, anonymousId)).toMatchObject({ user_id: null, metadata: {} })
  const carrying = (await mock.recorderSessions()).filter(
    (one) => one.user_id === account.email || Object.values(one.metadata).includes(account.email),
  )
  expect(carrying.map((one) => one.id)).toEqual([old.id])
}

/** The next event the page sends whose exception is `message`. */
async function waitForSentEvent(events: SentEvent[], message: string): Promise<SentEvent> {
  const find = () => events.find((one) => one.exception?.values?.some((value) => value.value === message))
  await expect.poll(find, { message: `an event for "${message}"` }).toBeDefined()
  return find()!
}

const throwOnWindow = (page: Page, message: string) =>
  page.evaluate((text) => window.dispatchEvent(new ErrorEvent('error', { error: new Error(text) })), message)

/** Opens /login with one monitoring chunk unloadable, then starts the services by a first key press. */
async function startServicesWithout(
  page: Page,
  allowedConsoleErrors: RegExp[],
  chunk: string,
): Promise<void> {
  allowedConsoleErrors.push(/Failed to load resource: net::ERR_FAILED/)
  await abortChunk(page, chunk)
  await page.goto('/login')
  await page.getByLabel('E-mail', { exact: true }).press('a')
}

test('a recorder whose chunk cannot be loaded says so on the console and reports nothing', async ({
  page,
  consoleLines,
  allowedConsoleErrors,
}) => {
  const sent = collectSentEvents(page)
  await startServicesWithout(page, allowedConsoleErrors, 'recorder')
  await expect
    .poll(() => consoleLines.filter((line) => line.startsWith('Failed to start the session recorder:')))
    .toHaveLength(1)
  // An error raised after the failure is sent; nothing was sent before it (the failure is no unhandled rejection).
  await throwOnWindow(page, 'e2e: after the recorder failed')
  await waitForSentEvent(sent, 'e2e: after the recorder failed')
  expect(sent.map((event) => event.exception?.values?.map((value) => value.value))).toEqual([
    ['e2e: after the recorder failed'],
  ])
})

test('error reporting whose chunk cannot be loaded says so on the console, and the recorder still starts', async ({
  page,
  consoleLines,
  allowedConsoleErrors,
}) => {
  const recording = waitForRecordingStart(page)
  await startServicesWithout(page, allowedConsoleErrors, 'error-reporting')
  await expect
    .poll(() => consoleLines.filter((line) => line.startsWith('Failed to start error reporting:')))
    .toHaveLength(1)
  expect(await recording).toEqual(expect.any(String))
})

test('log-out: the recording restarts anonymous and error events carry no user', async ({
  page,
  account,
  mock,
  consoleLines,
  allowedConsoleErrors,
}) => {
  allowedConsoleErrors.push(new RegExp(QA_TEST_ERROR), /The above error occurred/, /React Router caught/)
  const sent = collectSentEvents(page)
  await signInThroughForm(page, account)
  const old = await waitForRecordingOf(page, mock, account)
  await throwOnWindow(page, 'e2e: signed in')
  expect((await waitForSentEvent(sent, 'e2e: signed in')).user).toEqual({
    id: old.metadata.userId,
    email: account.email,
  })

  const anonymous = waitForRecordingStart(page)
  const before = consoleLines.length
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log out' }).click()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect.poll(() => consoleLines.slice(before)).toContain('User ID cleared (user not logged in)')
  await expectRecordingWithoutUser(page, mock, { account, old, anonymousId: await anonymous })

  await page.getByRole('button', { name: 'QA panel' }).click()
  await page
    .getByRole('region', { name: 'QA panel' })
    .getByRole('button', { name: 'Throw a test error' })
    .click()
  const event = await waitForSentEvent(sent, QA_TEST_ERROR)
  expect(event.user ?? {}).toEqual({})
  await expect
    .poll(async () => (await mock.sentryEvents()).some((one) => one.event_id === event.event_id))
    .toBe(true)
})

test('a forced sign-out (a 401 on /api/me) clears both as well', async ({ page, account, mock }) => {
  const sent = collectSentEvents(page)
  await signInThroughForm(page, account)
  const old = await waitForRecordingOf(page, mock, account)

  const anonymous = waitForRecordingStart(page)
  await mock.arm({ name: 'unauthorized-other', email: account.email, operation: 'getMe' })
  // Home loads GET /api/me when it opens: leave it, then come back by the header's link.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
  await expect(landmarkOf(page, '/help', account)).toBeVisible()
  await goHomeByLink(page)
  await expect(page).toHaveURL(/\/login/)
  await expectRecordingWithoutUser(page, mock, { account, old, anonymousId: await anonymous })

  await throwOnWindow(page, 'e2e: after a forced sign-out')
  const event = await waitForSentEvent(sent, 'e2e: after a forced sign-out')
  expect(event.user ?? {}).toEqual({})
})

test('a new build: the info toast within the hour, and the next navigation loads it', async ({
  page,
  account,
  request,
  mock,
}) => {
  const served = await readServedBuild(request)
  await page.clock.install()
  try {
    await signInThroughForm(page, account)
    const loads = countDocumentLoads(page)
    await mock.serveBuild(`e2e-${Date.now().toString(36)}`)
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
    await mock.serveBuild(served.id) // other tests of the run see the build they loaded as the newest again
  }
})

test('the QA panel asks for the control token, then drives the mock server with it', async ({
  page,
  account,
  request,
}) => {
  // A server started by hand for E2E_REUSE_SERVER may have no token: then there is nothing to ask for.
  const guarded = (await request.get('/__mock/clock')).status() === 401
  test.skip(!guarded || !process.env.MOCK_CONTROL_TOKEN, 'the server runs without a control token')
  await signInThroughForm(page, account)
  await page.getByRole('button', { name: 'QA panel' }).click()
  const panel = page.getByRole('region', { name: 'QA panel' })
  const form = panel.getByRole('form', { name: 'Control token' })
  await form.getByLabel('Control token').fill(process.env.MOCK_CONTROL_TOKEN!)
  await form.getByRole('button', { name: 'Use the token' }).click()
  await panel.getByRole('combobox', { name: 'Scenario' }).selectOption('legacy-user-fields')
  await panel.getByRole('button', { name: 'Arm for my account' }).click()
  await expect(panel.getByText(`Armed legacy-user-fields for ${account.email}.`)).toBeVisible()
})
