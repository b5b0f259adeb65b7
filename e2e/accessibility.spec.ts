// Every route of docs/behaviour.md: Routes passes an axe scan with no serious or critical violation.
// One step per route, so each is reported even when an earlier one fails.
import { AxeBuilder } from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { clickMainNav, expect, holdSignOut, landmarkOf, signInThroughForm, test } from './fixtures.ts'

/**
 * The serious and critical violations on the page now, readable in a failure.
 * Legacy mode: without frames it gives the same verdict in half the time (docs/decisions/015-suite-speed.md).
 */
async function findSeriousViolations(page: Page) {
  const builder = new AxeBuilder({ page })
  if (page.frames().length === 1) builder.setLegacyMode()
  const { violations } = await builder.analyze()
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact,
      help: violation.help,
      where: violation.nodes.map((node) => node.target.join(' ')),
    }))
}

/** Scans a settled page: the loading bar is hidden once the session is ready and no call is in flight. */
async function scan(page: Page, what: string, { settled = true } = {}): Promise<void> {
  if (settled) await expect(page.getByRole('progressbar', { name: 'Loading' })).toBeHidden()
  expect.soft(await findSeriousViolations(page), `serious or critical violations on ${what}`).toEqual([])
}

const PUBLIC_PAGES = [
  { path: '/login', heading: 'Sign in' },
  { path: '/signup', heading: 'Create an account' },
  { path: '/otp', heading: 'Enter your sign-in code' },
  { path: '/new/otp', heading: 'Verify your e-mail address' },
  { path: '/forgot', heading: 'Forgot your password?' },
  { path: '/update_password', heading: 'Set a new password' },
  { path: '/callback', heading: 'Sign-in failed' },
  { path: '/no/such/page', heading: 'Page not found' },
] as const

test('axe: the public routes and the error page', async ({ page }) => {
  test.setTimeout(90_000) // nine scans of a second or two each
  for (const { path, heading } of PUBLIC_PAGES) {
    await test.step(path, async () => {
      await page.goto(path)
      await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
      await scan(page, path)
    })
  }
  await test.step('/login with field errors', async () => {
    await page.goto('/login')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByText('Enter your e-mail address.')).toBeVisible()
    await scan(page, '/login with field errors')
  })
})

test('axe: the signed-in routes and /logout', async ({ page, account }) => {
  test.setTimeout(60_000) // four scans
  await signInThroughForm(page, account)
  for (const path of ['/', '/help', '/process'] as const) {
    await test.step(path, async () => {
      if (path !== '/') await clickMainNav(page, path)
      await expect(landmarkOf(page, path, account)).toBeVisible()
      await scan(page, path)
    })
  }
  await test.step('/logout (while signing out)', async () => {
    const release = await holdSignOut(page) // the page stays on screen for the scan
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log out' }).click()
    await expect(page.getByRole('heading', { name: 'Signing out…' })).toBeVisible()
    await scan(page, '/logout', { settled: false }) // the loading bar shows while signing out
    release()
    await expect(page).toHaveURL('/login')
  })
})

// The dark scheme has colours of its own (web/src/app/app.css): the screens that show each of them, scanned again.
test.describe('dark scheme', () => {
  test.use({ colorScheme: 'dark' })

  test('axe: sign-in, sign-up and the error page in the dark scheme', async ({ page }) => {
    test.setTimeout(60_000) // three scans
    for (const { path, heading } of PUBLIC_PAGES.filter(({ path }) =>
      ['/login', '/signup', '/no/such/page'].includes(path),
    )) {
      await test.step(path, async () => {
        await page.goto(path)
        await expect(page.getByRole('heading', { name: heading, level: 1 })).toBeVisible()
        await scan(page, `${path} (dark)`)
      })
    }
  })

  test('axe: home, help and process in the dark scheme', async ({ page, account }) => {
    test.setTimeout(60_000) // three scans
    await signInThroughForm(page, account)
    for (const path of ['/', '/help', '/process'] as const) {
      await test.step(path, async () => {
        if (path !== '/') await clickMainNav(page, path)
        await expect(landmarkOf(page, path, account)).toBeVisible()
        await scan(page, `${path} (dark)`)
      })
    }
  })
})
