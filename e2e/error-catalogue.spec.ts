// One test per e2e row of the error catalogue (docs/behaviour.md: Messages), driven by the row itself.
// Expectations are read from the row, never retyped here.
import type { Page } from '@playwright/test'
import { recordCatalogueRow } from '../harness/catalogue-coverage.ts'
import { armRequest, ERROR_CATALOGUE, type CatalogueRow, type ServerStep } from '../api/error-catalogue.ts'
import { abortChunk, breakChunkRender, countDocumentLoads, RENDER_ERROR } from './chunks.ts'
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
  type Account,
  type MockControl,
  type StoredTokens,
} from './fixtures.ts'
import { startSession } from './session-start.ts'

/**
 * The protected call of the catalogue's stories is home's GET /api/me.
 * 401 scenarios are armed for that operation only, since other pages make protected calls too.
 */
const PROTECTED_OPERATION = 'getMe' as const
const operationOf = (step: ServerStep) => (step.call === 'protected' ? PROTECTED_OPERATION : 'refreshToken')

interface Run {
  page: Page
  account: Account
  mock: MockControl
  row: CatalogueRow
  consoleLines: string[]
  allowedConsoleErrors: RegExp[]
}

/** What a trigger leaves for the checks: the journal position and storage before it, and its page loads. */
interface Triggered {
  since: number
  before: StoredTokens
  /** Page loads from the trigger on (each one refreshes once at start-up when tokens exist, docs/behaviour.md: Session). */
  pageLoads: number
}

/** Signed in at home; then home is opened again by the header's link, which loads GET /api/me. */
async function protectedCall({ page, account, mock, row }: Run): Promise<Triggered> {
  await signInThroughForm(page, account) // no tokens at start-up, so no start-up refresh to race with
  const before = await readTokens(page)
  const since = await mock.lastSeq()
  for (const step of row.arm) await mock.arm(armRequest(step, account.email, PROTECTED_OPERATION))
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
  await expect(landmarkOf(page, '/help', account)).toBeVisible()
  await goHomeByLink(page)
  return { since, before, pageLoads: 0 }
}

/** The refresh token is gone (the access token is still there) when a call meets 401 token_expired. */
async function refreshWithoutToken(run: Run): Promise<Triggered> {
  const { page, account, mock } = run
  const { before, since } = await startSession(page, mock, account)
  await mock.arm(armRequest({ name: 'access-token-expired' }, account.email, PROTECTED_OPERATION))
  await page.evaluate(() => window.sessionStorage.removeItem('refreshToken'))
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
  await expect(landmarkOf(page, '/help', account)).toBeVisible()
  await goHomeByLink(page)
  return { since, before, pageLoads: 0 }
}

/** A signed-in user opens an address the app does not have. */
async function unmatchedPath({ page, account, mock, row }: Run): Promise<Triggered> {
  const { before, since } = await startSession(page, mock, account)
  await page.goto(row.expect.route)
  return { since, before, pageLoads: 1 }
}

/** A signed-in user opens home, whose screen throws while rendering. */
async function fatalError({ page, account, mock, row, allowedConsoleErrors }: Run): Promise<Triggered> {
  allowedConsoleErrors.push(new RegExp(RENDER_ERROR)) // React and React Router report what they caught
  const { before, since } = await startSession(page, mock, account)
  await breakChunkRender(page, 'home-page')
  await page.goto(row.expect.route)
  return { since, before, pageLoads: 1 }
}

/**
 * Home's chunk cannot load: the page reloads once, and not again within 10 s.
 * The page clock stands still, so "within 10 s" does not depend on the machine's speed.
 */
async function chunkLoadError({ page, account, mock, row, allowedConsoleErrors }: Run): Promise<Triggered> {
  allowedConsoleErrors.push(
    /Failed to load resource: net::ERR_FAILED/,
    /Failed to fetch dynamically imported module/,
    /React Router caught the following error/,
  )
  await page.clock.install()
  const { before, since } = await startSession(page, mock, account)
  await abortChunk(page, 'home-page')
  await page.clock.pauseAt(new Date(Date.now() + 60_000))
  const loads = countDocumentLoads(page)
  const failed = page.getByRole('heading', { name: 'Internal Server Error' })
  const goHome = () => page.getByRole('link', { name: 'Go to the home page' }).click()

  await page.goto(row.expect.route)
  await expect(failed).toBeVisible() // shown only once a failure is not answered by a reload
  expect(loads.count, 'the first load and exactly one reload').toBe(2)

  await page.clock.fastForward(9_000)
  await goHome()
  await expect(failed).toBeVisible()
  expect(loads.count, 'a failure 9 s after the reload is not reloaded').toBe(3)

  await page.clock.fastForward(1_000)
  await goHome()
  await expect(failed).toBeVisible()
  expect(loads.count, 'a failure 10 s after the reload is reloaded, once').toBe(5)
  return { since, before, pageLoads: loads.count }
}

const TRIGGERS: Record<CatalogueRow['trigger'], (run: Run) => Promise<Triggered>> = {
  'protected-call': protectedCall,
  'refresh-without-token': refreshWithoutToken,
  'unmatched-path': unmatchedPath,
  'fatal-error': fatalError,
  'chunk-load-error': chunkLoadError,
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * What the row leaves in sessionStorage: 'cleared', all three values gone; 'kept', still signed in (a pair and the
 * same service token); 'untouched', exactly as before, except that each page load with tokens refreshes once at
 * start-up (docs/behaviour.md: Session), which rotates the pair and nothing else.
 */
async function expectStorage(run: Run, triggered: Triggered): Promise<void> {
  const { page, account, mock, row } = run
  const { before, since, pageLoads } = triggered
  const compared = async () => compareTokens(before, await readTokens(page))
  switch (row.expect.storage) {
    case 'cleared':
      await expect.poll(() => readTokens(page), { message: 'all three values removed' }).toEqual(NO_TOKENS)
      return
    case 'kept':
      await expect.poll(compared, { message: 'still signed in' }).toEqual({
        accessToken: expect.not.stringMatching(/^gone$/),
        refreshToken: expect.not.stringMatching(/^gone$/),
        serviceToken: 'same',
      })
      return
    case 'untouched': {
      if (pageLoads === 0) {
        expect(await readTokens(page), 'storage exactly as before').toEqual(before)
        return
      }
      await expect.poll(compared, { message: 'rotated by the start-up refresh only' }).toEqual(ROTATED)
      const refreshes = describeCalls(await mock.requests(account.email, since), ['refreshToken'])
      expect(refreshes.length, 'one start-up refresh per page load at most').toBeLessThanOrEqual(pageLoads)
      expect(
        refreshes.filter((call) => call !== 'refreshToken 200'),
        'every refresh succeeded',
      ).toEqual([])
    }
  }
}

test.describe('error catalogue (docs/behaviour.md: Messages)', () => {
  for (const row of ERROR_CATALOGUE.filter((candidate) => candidate.suites.includes('e2e'))) {
    test(`${row.id}: ${row.situation}`, async ({
      page,
      account,
      mock,
      consoleLines,
      allowedConsoleErrors,
    }) => {
      const run: Run = { page, account, mock, row, consoleLines, allowedConsoleErrors }
      const requested: string[] = []
      page.on('request', (request) => requested.push(new URL(request.url()).pathname))
      const triggered = await TRIGGERS[row.trigger](run)

      await expect(page).toHaveURL((url) => url.pathname === row.expect.route)
      if (row.expect.toast !== undefined) await expect(toasts(page)).toHaveText(row.expect.toast)
      if (row.expect.title !== undefined) {
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(row.expect.title)
        await expect(page).toHaveTitle(new RegExp(`^${escape(row.expect.title)}\\b`))
      }
      if (row.expect.message !== undefined) {
        // "plus the path": the message, then the requested path, in one line.
        const line = new RegExp(`^${escape(row.expect.message)}\\b.*${escape(row.expect.route)}$`)
        await expect(page.getByText(line)).toBeVisible()
      }
      if (row.expect.log !== undefined) {
        await expect.poll(() => consoleLines).toContain(row.expect.log)
        expect(requested, 'the browser sent no refresh').not.toContain('/api/refresh_token')
        const calls = describeCalls(await mock.requests(account.email, triggered.since))
        expect(
          calls.filter((call) => call.startsWith('refreshToken')),
          'no refresh in the journal',
        ).toEqual([])
      }
      if (row.expect.route === '/login')
        await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
      await expectStorage(run, triggered)
      if (row.server.length > 0) {
        // The calls of the row's story, in order, and nothing more: one refresh, one retry at most.
        const expected = row.server.map((step) => `${operationOf(step)} ${step.status}`)
        await expect
          .poll(async () =>
            describeCalls(await mock.requests(account.email, triggered.since), [
              PROTECTED_OPERATION,
              'refreshToken',
            ]),
          )
          .toEqual(expected)
      }
      recordCatalogueRow(row.id, 'e2e')
    })
  }
})
