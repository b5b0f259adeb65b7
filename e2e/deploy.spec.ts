// Deployed the way visitors meet it (docs/decisions/020-deploying-on-two-origins.md): a static host for the app and
// the mock server in --production on another origin. A visitor's whole session works across the two origins.
// No /__mock here: the codes are read where the server mails them (--mail-outbox).
import type { Frame, Page } from '@playwright/test'
import {
  compareTokens,
  createEmail,
  expect,
  NO_TOKENS,
  PASSWORD,
  readTokens,
  ROTATED,
  submitSignUpForm,
  test,
} from './fixtures.ts'
import { startProductionApi, startStaticSite, type ProductionApi } from './deploy-servers.ts'
import { REFRESH_INTERVAL_MS } from './session-start.ts'

const NETWORK_ERROR = 'Could not reach the server. Check your connection and try again.'

/** The run's build of the app (playwright.config.ts). */
const webDir = process.env.E2E_WEB_DIR ?? ''

// No made-up X-Forwarded-For here: this API trusts no proxy, and the app never sends one.
test.use({ extraHTTPHeaders: {} })

/**
 * An answer of the API to one of the app's calls.
 * `nextDocument` matches only after the main frame navigated, so a late answer of the old page never counts.
 */
function answerOf(
  page: Page,
  api: ProductionApi,
  method: string,
  path: string,
  { nextDocument = false } = {},
) {
  let navigated = !nextDocument
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) navigated = true
  }
  if (nextDocument) page.on('framenavigated', onNavigated)
  return page
    .waitForResponse(
      (response) =>
        navigated && response.url() === `${api.origin}${path}` && response.request().method() === method,
    )
    .finally(() => page.off('framenavigated', onNavigated))
}

async function logOut(page: Page, api: ProductionApi, app: string): Promise<void> {
  const deleted = answerOf(page, api, 'DELETE', '/api/_auth/session')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log out' }).click()
  expect((await deleted).status(), 'the server ended the session').toBe(200)
  await expect(page).toHaveURL(`${app}/login`)
}

const TOPOLOGIES = [
  // Another site, as app.example.net and api.example.com: only a partitioned SameSite=None cookie crosses.
  { label: 'another site', appHost: 'localhost' },
  // The same site on another origin, as app.example.com and api.example.com.
  { label: 'the same site, another port', appHost: '127.0.0.1' },
] as const

for (const { label, appHost } of TOPOLOGIES) {
  test(`the built app on a static host and the API in --production on ${label}: sign-up with the mailed code, sign-in, a reload and the 300 s refresh, log-out`, async ({
    page,
    request,
  }) => {
    test.slow() // two servers of its own to start, besides the suite's
    const site = await startStaticSite(webDir)
    const app = `http://${appHost}:${site.port}`
    const api = await startProductionApi([app])
    try {
      expect(new URL(app).origin).not.toBe(new URL(api.origin).origin)
      site.setConfig({ apiBase: api.origin, environment: 'production', externalSignIn: false })
      await page.clock.install()
      const email = createEmail('deploy')
      const name = 'Ada Deployed'
      const welcome = page.getByRole('heading', { name: `Welcome, ${name}` })

      // Sign-up, with the code from the server's outbox.
      await submitSignUpForm(page, { name, email, password: PASSWORD }, app)
      await expect(page).toHaveURL(`${app}/new/otp`)
      let code: string | undefined
      await expect.poll(() => (code = api.readCode(email, 'signup'))).toMatch(/^\d{6}$/)
      await page.getByLabel('6-digit code').fill(code ?? '')
      await page.getByRole('button', { name: 'Verify' }).click()
      await expect(page).toHaveURL(`${app}/`)
      await expect(welcome).toBeVisible()

      // Log out, then sign in with the password.
      await logOut(page, api, app)
      await page.getByLabel('E-mail', { exact: true }).fill(email)
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect(page).toHaveURL(`${app}/`)
      await expect(welcome).toBeVisible()

      // A reload: the start-up refresh, and the session call answered from the cookie the other origin set.
      const signedIn = await readTokens(page)
      const startupRefresh = answerOf(page, api, 'POST', '/api/refresh_token', { nextDocument: true })
      const session = answerOf(page, api, 'GET', '/api/_auth/session', { nextDocument: true })
      await page.reload()
      expect((await startupRefresh).status()).toBe(200)
      expect(await (await session).json()).toMatchObject({ user: { email, name } })
      await expect(welcome).toBeVisible()
      await expect(page).toHaveURL(`${app}/`)
      expect(compareTokens(signedIn, await readTokens(page))).toEqual(ROTATED)

      // The periodic refresh, 300 s on; then a page whose call carries the new token.
      const reloaded = await readTokens(page)
      const periodic = answerOf(page, api, 'POST', '/api/refresh_token')
      await page.clock.fastForward(REFRESH_INTERVAL_MS)
      expect((await periodic).status()).toBe(200)
      await expect.poll(async () => compareTokens(reloaded, await readTokens(page))).toEqual(ROTATED)
      const help = answerOf(page, api, 'GET', '/api/help')
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Help' }).click()
      expect((await help).status()).toBe(200)
      await expect(page.getByRole('heading', { name: 'Help', exact: true })).toBeVisible()

      // Log out: the tokens go, and the server no longer takes the last refresh token or the cookie.
      const last = await readTokens(page)
      await logOut(page, api, app)
      expect(await readTokens(page)).toEqual(NO_TOKENS)
      const refused = await request.post(`${api.origin}/api/refresh_token`, {
        data: { refresh_token: last.refreshToken },
      })
      expect(refused.status()).toBe(401)
      const sessionAfter = answerOf(page, api, 'GET', '/api/_auth/session', { nextDocument: true })
      await page.goto(`${app}/`)
      expect(await (await sessionAfter).json()).toEqual({})
      await expect(page).toHaveURL(`${app}/login?redirect=%2F`)
    } finally {
      // The page leaves before its servers go: a background fetch refused later would read as the page's error.
      await page.goto('about:blank')
      await api.stop()
      await site.close()
    }
  })
}

test('an API started for another origin refuses the app: the browser blocks its calls, sign-in cannot reach the server, and a preflight from the app’s origin gets no Allow-Origin', async ({
  page,
  request,
  allowedConsoleErrors,
  consoleLines,
}) => {
  test.slow()
  allowedConsoleErrors.push(/blocked by CORS policy/, /Failed to load resource: net::ERR_FAILED/)
  const site = await startStaticSite(webDir)
  const app = `http://localhost:${site.port}`
  const api = await startProductionApi(['https://app.example'])
  try {
    site.setConfig({ apiBase: api.origin, environment: 'production', externalSignIn: false })
    await page.goto(`${app}/login`)
    await page.getByLabel('E-mail', { exact: true }).fill(createEmail('deploy-refused'))
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await expect(page.getByRole('alert')).toHaveText(NETWORK_ERROR)
    await expect(page).toHaveURL(`${app}/login`)
    expect(consoleLines.filter((line) => /blocked by CORS policy/.test(line))).toContainEqual(
      expect.stringContaining(`${api.origin}/api/auth/login`),
    )

    const preflight = await request.fetch(`${api.origin}/api/auth/login`, {
      method: 'OPTIONS',
      headers: {
        Origin: app,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    })
    expect(preflight.status()).toBe(403)
    expect(preflight.headers()['access-control-allow-origin']).toBeUndefined()
    expect(await preflight.json()).toEqual({
      error: 'cross_site_request',
      message: 'This API takes no calls from that origin.',
    })
  } finally {
    await page.goto('about:blank') // as above: the page leaves before its servers go
    await api.stop()
    await site.close()
  }
})
