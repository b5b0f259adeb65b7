// The signed-in area in the browser (docs/behaviour.md: Signed-in area).
import { createAccount, describeCalls, expect, signInThroughForm, test } from './fixtures.ts'
import { pickerDialog, scheduleField, stepItem } from './services-fixtures.ts'

const NEXT_STEP = 'Complete your learner profile'
const COURSE = 'Choose your first course'

test('home: the greeting, the account, this device, what is next, and the way on', async ({
  page,
  account,
}) => {
  await signInThroughForm(page, account)
  await expect(page.getByRole('heading', { name: `Welcome, ${account.name}`, level: 1 })).toBeVisible()
  const details = page.getByRole('region', { name: 'Your account' })
  await expect(details.getByText(account.email)).toBeVisible()
  await expect(details.getByRole('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/)
  await expect(details.getByText('Chrome, desktop')).toBeVisible() // headless Chromium on Linux, not a crawler
  const next = page.getByRole('region', { name: 'What is next' })
  await expect(next.getByText(NEXT_STEP)).toBeVisible()
  await expect(next.getByText('Not scheduled yet.')).toBeVisible()
  await next.getByRole('link', { name: 'Go to your process' }).click()
  await expect(page).toHaveURL('/process')
  await expect(page.getByRole('heading', { name: 'Process', level: 1 })).toBeVisible()
})

test('process: a step scheduled with the picker is still scheduled after a reload', async ({
  page,
  account,
  mock,
}) => {
  await signInThroughForm(page, account, '/process')
  const since = await mock.lastSeq()
  await scheduleField(page, COURSE).click()
  const dialog = pickerDialog(page)
  await expect(dialog).toBeVisible()
  await expect(dialog.getByRole('columnheader').first()).toHaveText(/^Su/) // the week starts on Sunday
  await expect(dialog.getByRole('listbox', { name: 'Time' })).toHaveJSProperty('clientHeight', 255)
  await dialog.getByRole('button', { name: 'Next Month' }).click()
  await dialog.getByRole('gridcell', { name: /15th/ }).click()
  await dialog.getByRole('option', { name: '10:35' }).click() // minutes in steps of 5
  await expect(dialog).toBeHidden()
  const when = stepItem(page, COURSE).getByRole('time')
  await expect(when).toBeVisible()
  const shown = await when.textContent()
  const saved = await scheduleField(page, COURSE).inputValue()
  expect(saved).toMatch(/^\d{4}-\d\d-15 10:35$/)
  await expect
    .poll(async () => describeCalls(await mock.requests(account.email, since), ['updateProcessStep']))
    .toEqual(['updateProcessStep 200'])

  await page.reload()
  await expect(stepItem(page, COURSE).getByRole('time')).toHaveText(shown!)
  await expect(scheduleField(page, COURSE)).toHaveValue(saved)
  // Home's "what is next" is the step before it, still unscheduled.
  await page.getByRole('banner').getByRole('link', { name: 'Auth shell' }).click()
  await expect(page.getByRole('region', { name: 'What is next' }).getByText(NEXT_STEP)).toBeVisible()
})

test('process: a status change is saved', async ({ page, account }) => {
  await signInThroughForm(page, account, '/process')
  await page.getByRole('combobox', { name: `Status of “${NEXT_STEP}”` }).selectOption('Done')
  await expect(page.getByText('2 of 6 steps done.')).toBeVisible()
  await page.reload()
  await expect(page.getByRole('combobox', { name: `Status of “${NEXT_STEP}”` })).toHaveValue('done')
})

test('help: searched as you type, each article opens in place', async ({ page, account }) => {
  await signInThroughForm(page, account, '/help')
  const search = page.getByRole('searchbox', { name: 'Search help' })
  const titles = page.getByRole('main').getByRole('list').getByRole('button')
  await expect(titles).toHaveCount(8)
  await search.pressSequentially('passw')
  await expect(titles).toHaveText([
    'I forgot my password',
    'Why was I signed out?',
    'Choosing a strong password',
  ])
  await expect(page.getByRole('status').filter({ hasText: 'articles match' })).toHaveText(
    '3 of 8 articles match.',
  )
  await page.getByRole('button', { name: 'I forgot my password' }).click()
  await expect(page.getByRole('region', { name: 'I forgot my password' })).toContainText(
    'We e-mail you a code',
  )
  await search.fill('refund')
  await expect(page.getByText('No articles match “refund”. Try other words, or fewer.')).toBeVisible()
  await page.getByRole('button', { name: 'Clear the search' }).click()
  await expect(titles).toHaveCount(8)
})

test.describe('the picker at 600 px wide (docs/behaviour.md: Constants: mobile breakpoint 600)', () => {
  test.use({ viewport: { width: 600, height: 900 } })

  test('the mobile layout: a full-screen overlay, the calendar centred', async ({ page, account }) => {
    await signInThroughForm(page, account, '/process')
    await scheduleField(page, COURSE).click()
    const dialog = pickerDialog(page)
    await expect(dialog).toBeVisible()
    const box = (await dialog.boundingBox())!
    expect(Math.abs(box.x + box.width / 2 - 300)).toBeLessThanOrEqual(2)
    // The overlay covers the page: the header's corner is under it.
    const covered = await page.evaluate(() => document.elementFromPoint(2, 2)?.closest('header') === null)
    expect(covered).toBe(true)
    await expect(dialog.getByRole('listbox', { name: 'Time' })).toHaveJSProperty('clientHeight', 255)
    await dialog.getByRole('gridcell', { name: /15th/ }).click()
    await dialog.getByRole('option', { name: '09:00' }).click()
    await expect(dialog).toBeHidden()
    await expect(stepItem(page, COURSE).getByRole('time')).toBeVisible()
  })
})

test.describe('the picker at 601 px wide', () => {
  test.use({ viewport: { width: 601, height: 900 } })

  test('the desktop layout: a popover beside the field', async ({ page, account }) => {
    await signInThroughForm(page, account, '/process')
    const field = scheduleField(page, COURSE)
    await field.click()
    const dialog = pickerDialog(page)
    await expect(dialog).toBeVisible()
    const [calendar, input] = [(await dialog.boundingBox())!, (await field.boundingBox())!]
    // Just below the field, or just above it when there is no room below (the arrow between them).
    const gap = Math.min(
      Math.abs(calendar.y - (input.y + input.height)),
      Math.abs(input.y - (calendar.y + calendar.height)),
    )
    expect(gap).toBeLessThanOrEqual(16)
    expect(Math.abs(calendar.x + calendar.width / 2 - 300)).toBeGreaterThan(2) // not centred in the page
    const covered = await page.evaluate(() => document.elementFromPoint(2, 2)?.closest('header') === null)
    expect(covered).toBe(false)
  })
})

// The longest name the contract takes, without a space. The page must never scroll sideways.
for (const width of [360, 1280])
  test(`home at ${width} px: a 100-letter name without a space never pushes the page sideways`, async ({
    page,
    request,
    mock,
    baseURL,
  }) => {
    const account = await createAccount(request, mock, baseURL!, `long-name-${width}`, 'W'.repeat(100))
    await page.setViewportSize({ width, height: 800 })
    await signInThroughForm(page, account)
    await expect(page.getByRole('heading', { name: `Welcome, ${account.name}`, level: 1 })).toBeVisible()
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    )
    expect(overflow).toBeLessThanOrEqual(0)
  })
