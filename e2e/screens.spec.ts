// Screenshot tests of every screen at a phone's and a desktop's width. Baselines live in screens.spec.ts-snapshots/
// (update with --update-snapshots). Whatever changes between runs is masked or fixed, so pictures compare.
// Why these fonts and tolerances: docs/decisions/014-layout-and-screenshots.md.
import type { Locator, Page } from '@playwright/test'
import {
  clickMainNav,
  expect,
  expectSettled,
  goHomeByLink,
  holdSignOut,
  signInThroughForm,
  test,
  throwQaTestError,
  toasts,
} from './fixtures.ts'

const VIEWPORTS = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1280, height: 800 },
} as const

/** Sub-pixel anti-aliasing differs a little between runs and machines; a changed layout moves far more than this. */
const TOLERANCE = { maxDiffPixelRatio: 0.01, threshold: 0.2 } as const

/**
 * Waits until the page is settled: no call in flight, fonts loaded, the QA panel's toggle in place.
 * The toggle mounts at idle (docs/decisions/012-first-load.md), which may come after the picture otherwise.
 */
async function settle(page: Page, qaPanel: boolean): Promise<void> {
  await expectSettled(page)
  if (qaPanel) await expect(page.getByRole('button', { name: 'QA panel' })).toBeVisible()
  await expect.poll(() => page.evaluate(async () => (await document.fonts.ready).status)).toBe('loaded')
}

/** A soft screenshot check of the whole page, so one changed screen does not hide the others of the same test. */
async function expectScreen(page: Page, name: string, mask: Locator[] = [], qaPanel = true): Promise<void> {
  await settle(page, qaPanel)
  await expect.soft(page).toHaveScreenshot(`${name}.png`, {
    ...TOLERANCE,
    fullPage: true,
    animations: 'disabled',
    caret: 'hide',
    mask,
  })
}

/** The public screens, each as a visitor first sees it, by its level-one heading. */
const PUBLIC_SCREENS = [
  { name: 'login', path: '/login', heading: 'Sign in' },
  { name: 'signup', path: '/signup', heading: 'Create an account' },
  { name: 'otp', path: '/otp', heading: 'Enter your sign-in code' },
  { name: 'new-otp', path: '/new/otp', heading: 'Verify your e-mail address' },
  { name: 'forgot', path: '/forgot', heading: 'Forgot your password?' },
  { name: 'update-password', path: '/update_password', heading: 'Set a new password' },
  { name: 'callback-failed', path: '/callback', heading: 'Sign-in failed' },
  { name: 'not-found', path: '/no/such/page', heading: 'Page not found' },
] as const

/** Home's values that differ per run: the generated address and the sign-in time. */
async function homeMasks(page: Page): Promise<Locator[]> {
  const account = page.getByRole('region', { name: 'Your account' })
  // The sign-in time is masked, but its length still moves the layout: at a phone's width "Nov 30, 2026, 11:55 PM"
  // takes two lines and "Dec 1, 2026, 1:47 AM" one, so the picture changed with the day and hour of the run. It is
  // given one fixed text of the long kind, as the baselines have it.
  await account.locator('time').evaluate((time) => (time.textContent = 'Nov 30, 2026, 11:55 PM'))
  return [account.locator('dd').nth(0), account.locator('time')]
}

async function openSignedIn(page: Page, path: '/process' | '/help'): Promise<void> {
  await clickMainNav(page, path)
  await expect(
    page.getByRole('heading', { name: path === '/help' ? 'Help' : 'Process', level: 1 }),
  ).toBeVisible()
}

for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
  test.describe(`${viewportName} (${viewport.width} x ${viewport.height})`, () => {
    test.use({ viewport, colorScheme: 'light' })

    test(`screens: the public routes, ${viewportName}`, async ({ page }) => {
      test.setTimeout(150_000) // a sign-in and several screens, each taken until two shots agree
      for (const { name, path, heading } of PUBLIC_SCREENS) {
        await test.step(path, async () => {
          await page.goto(path)
          await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
          await expectScreen(page, `${viewportName}-${name}`)
        })
      }
      await test.step('/login with field errors', async () => {
        await page.goto('/login')
        await page.getByRole('button', { name: 'Sign in' }).click()
        await expect(page.getByText('Enter your e-mail address.')).toBeVisible()
        await expectScreen(page, `${viewportName}-login-errors`)
      })
    })

    test(`screens: the signed-in area, ${viewportName}`, async ({ page, account }) => {
      test.setTimeout(150_000) // a sign-in and several screens, each taken until two shots agree
      await signInThroughForm(page, account)
      await test.step('/', async () => {
        await expect(page.getByRole('region', { name: 'Your account' }).locator('time')).toBeVisible()
        await expectScreen(page, `${viewportName}-home`, await homeMasks(page))
      })
      await test.step('/process', async () => {
        await openSignedIn(page, '/process')
        // The date picker is a chunk of its own: wait for its fields, not its placeholder.
        await expect(page.getByRole('textbox', { name: /^Schedule “/ })).toHaveCount(6)
        await expect(page.getByText('Loading the date picker…')).toHaveCount(0)
        await expectScreen(page, `${viewportName}-process`)
      })
      await test.step('/help', async () => {
        await openSignedIn(page, '/help')
        await expect(page.getByRole('searchbox', { name: 'Search help' })).toBeVisible()
        await expectScreen(page, `${viewportName}-help`)
      })
      await test.step('the QA panel (asking for the control token)', async () => {
        await page.getByRole('button', { name: 'QA panel' }).click()
        const panel = page.getByRole('region', { name: 'QA panel' })
        await expect(panel.getByRole('form', { name: 'Control token' })).toBeVisible()
        await expectScreen(page, `${viewportName}-qa-panel`)
        await page.getByRole('button', { name: 'QA panel' }).click()
        await expect(panel).toHaveCount(0)
      })
      await test.step('/logout (while signing out)', async () => {
        const release = await holdSignOut(page) // the page stays on screen
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log out' }).click()
        await expect(page.getByRole('heading', { name: 'Signing out…' })).toBeVisible()
        await expectScreen(page, `${viewportName}-logout`)
        release()
        await expect(page).toHaveURL('/login')
      })
    })

    test(`screens: signed out by an expired session, ${viewportName}`, async ({ page, account, mock }) => {
      test.setTimeout(60_000)
      await signInThroughForm(page, account)
      await mock.arm({ name: 'access-token-expired', email: account.email, operation: 'getMe' })
      await mock.arm({ name: 'refresh-rejected', email: account.email })
      await openSignedIn(page, '/help')
      await goHomeByLink(page)
      await expect(page).toHaveURL('/login')
      const toast = toasts(page).filter({ hasText: 'Session expired. Please login again.' })
      await expect(toast).toBeVisible()
      // A toast pauses while the pointer is on it, so it stays for the picture.
      await toast.hover()
      await expectScreen(page, `${viewportName}-session-expired`)
    })

    test(`screens: the error page of a fault, ${viewportName}`, async ({
      page,
      account,
      allowedConsoleErrors,
    }) => {
      // React and React Router log what the error page caught.
      test.setTimeout(60_000)
      allowedConsoleErrors.push(/QA panel: a test error/, /The above error occurred/, /React Router caught/)
      await signInThroughForm(page, account)
      await throwQaTestError(page)
      await expectScreen(page, `${viewportName}-server-error`, [], false)
    })
  })

  test.describe(`${viewportName}, dark scheme`, () => {
    test.use({ viewport, colorScheme: 'dark' })

    test(`screens: sign-in and home in the dark scheme, ${viewportName}`, async ({ page, account }) => {
      test.setTimeout(60_000)
      await page.goto('/login')
      await expect(page.getByRole('heading', { name: 'Sign in', level: 1 })).toBeVisible()
      await expectScreen(page, `${viewportName}-dark-login`)
      await signInThroughForm(page, account)
      await expect(page.getByRole('region', { name: 'Your account' }).locator('time')).toBeVisible()
      await expectScreen(page, `${viewportName}-dark-home`, await homeMasks(page))
    })
  })
}
