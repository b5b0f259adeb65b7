// The journeys of the product (docs/behaviour.md: Routes, Session, docs/behaviour.md: Routes): each one as a visitor does it, through
// the screens, with the codes read from the mock server's mailbox.
import { randomUUID } from 'node:crypto'
import {
  createEmail,
  describeCalls,
  expect,
  landmarkOf,
  NO_TOKENS,
  PASSWORD,
  readTokens,
  signInThroughForm,
  submitSignUpForm,
  test,
  toasts,
} from './fixtures.ts'
import { startSession } from './session-start.ts'

const NEW_PASSWORD = 'another long e2e passphrase'

/** All three values stored, none empty. */
const SIGNED_IN_STORAGE = {
  accessToken: expect.stringMatching(/.+/),
  refreshToken: expect.stringMatching(/.+/),
  serviceToken: expect.stringMatching(/.+/),
}

test('sign-up, the new-account code from the mailbox, then home greeted by name', async ({ page, mock }) => {
  const email = createEmail('signup')
  const name = 'Ada Lovelace'
  await submitSignUpForm(page, { name, email, password: PASSWORD })

  await expect(page).toHaveURL('/new/otp')
  await expect(page.getByRole('heading', { name: 'Verify your e-mail address' })).toBeVisible()
  await expect(page.getByLabel('E-mail', { exact: true })).toHaveValue(email)
  await page.getByLabel('6-digit code').fill(await mock.latestCode(email, 'signup'))
  await page.getByRole('button', { name: 'Verify' }).click()

  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { name: `Welcome, ${name}` })).toBeVisible()
  expect(await readTokens(page)).toEqual(SIGNED_IN_STORAGE)
})

test('sign-in with e-mail and password, then home', async ({ page, account }) => {
  await signInThroughForm(page, account)
  const nav = page.getByRole('navigation', { name: 'Main' })
  await expect(nav.getByText(account.name)).toBeVisible()
  await expect(nav.getByRole('link', { name: 'Log out' })).toBeVisible()
  expect(await readTokens(page)).toEqual(SIGNED_IN_STORAGE)
})

test('sign-in with a code by e-mail through /otp', async ({ page, account, mock }) => {
  await page.goto('/login')
  await page.getByLabel('E-mail', { exact: true }).fill(account.email)
  await page.getByRole('button', { name: 'E-mail me a code' }).click()

  await expect(page).toHaveURL('/otp')
  await expect(page.getByRole('heading', { name: 'Enter your sign-in code' })).toBeVisible()
  await page.getByLabel('6-digit code').fill(await mock.latestCode(account.email, 'login'))
  await page.getByRole('button', { name: 'Verify' }).click()

  await expect(page).toHaveURL('/')
  await expect(landmarkOf(page, '/', account)).toBeVisible()
  expect(await readTokens(page)).toEqual(SIGNED_IN_STORAGE)
})

test('forgot password, the reset code, a new password, then sign-in with it', async ({
  page,
  account,
  mock,
}) => {
  await page.goto('/login')
  await page.getByRole('link', { name: 'Forgot your password?' }).click()
  await expect(page).toHaveURL('/forgot')
  await page.getByLabel('E-mail', { exact: true }).fill(account.email)
  await page.getByRole('button', { name: 'Send me a code' }).click()

  await expect(page).toHaveURL('/otp')
  await expect(page.getByRole('heading', { name: 'Enter your reset code' })).toBeVisible()
  await page.getByLabel('6-digit code').fill(await mock.latestCode(account.email, 'reset'))
  await page.getByRole('button', { name: 'Verify' }).click()

  await expect(page).toHaveURL('/update_password')
  await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
  await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Save password' }).click()
  await expect(page).toHaveURL('/login')
  await expect(page.getByRole('status').filter({ hasText: 'Your password has been changed' })).toBeVisible()

  // The old password no longer works; the new one does.
  await page.getByLabel('E-mail', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('alert')).toHaveText('Wrong e-mail or password.')
  await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL('/')
  await expect(landmarkOf(page, '/', account)).toBeVisible()
})

test('single sign-on through the identity provider and /callback', async ({ page }) => {
  const email = createEmail('sso')
  const name = 'Grace Hopper'
  await page.goto('/login')
  await page.getByRole('button', { name: 'Continue with single sign-on' }).click()

  await expect(page).toHaveURL(/\/idp\/authorize\?/)
  await expect(page.getByRole('heading', { name: 'Mock Identity' })).toBeVisible()
  await page.getByLabel('E-mail', { exact: true }).fill(email)
  await page.getByLabel('Name', { exact: true }).fill(name)
  // The suite's server has a control token (playwright.config.ts), and so the form asks for it.
  await page.getByLabel('Control token', { exact: true }).fill(process.env.MOCK_CONTROL_TOKEN ?? '')
  await page.getByRole('button', { name: 'Continue' }).click()

  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { name: `Welcome, ${name}` })).toBeVisible()
  expect(await readTokens(page)).toEqual(SIGNED_IN_STORAGE)
})

test('single sign-on: a callback with a forged state is refused with a clear message', async ({
  page,
  request,
}) => {
  // The victim's tab starts its own sign-on and waits at the identity provider...
  await page.goto('/login')
  await page.getByRole('button', { name: 'Continue with single sign-on' }).click()
  await expect(page.getByRole('heading', { name: 'Mock Identity' })).toBeVisible()

  // ...when sent a callback the attacker obtained for their own account (login CSRF).
  const attacker = { email: createEmail('attacker'), state: `attacker${randomUUID().replace(/-/g, '')}` }
  const start = await request.get(
    `/api/auth/external/authorize?state=${attacker.state}&redirect_uri=/callback`,
    {
      maxRedirects: 0,
    },
  )
  expect(start.status()).toBe(302)
  const form = await (await request.get(start.headers().location ?? '')).text()
  const redirect = await request.post('/idp/authorize', {
    form: {
      request: /name="request" value="([^"]+)"/.exec(form)?.[1] ?? '',
      email: attacker.email,
      name: 'Mallory',
      control_token: process.env.MOCK_CONTROL_TOKEN ?? '',
    },
    maxRedirects: 0,
  })
  expect(redirect.status()).toBe(302)
  const forged = new URL(redirect.headers().location ?? '', 'http://any.origin')
  expect(forged.pathname).toBe('/callback')

  const exchanges: string[] = []
  page.on('request', (sent) => {
    if (new URL(sent.url()).pathname === '/api/auth/callback') exchanges.push(sent.url())
  })
  await page.goto(`${forged.pathname}${forged.search}`)

  await expect(page.getByRole('heading', { name: 'Sign-in failed' })).toBeVisible()
  await expect(page.getByRole('alert')).toHaveText(
    'This sign-in did not start in this browser tab, or it has already been used. Please start again.',
  )
  await expect(page.getByRole('link', { name: 'Back to sign in' })).toBeVisible()
  expect(exchanges, 'the app did not exchange the forged code').toEqual([])
  expect(await readTokens(page)).toEqual(NO_TOKENS)

  // The code itself was genuine: refused for its state, not for anything else (the attacker's own browser takes it).
  const exchanged = await request.post('/api/auth/callback', {
    data: { code: forged.searchParams.get('code'), state: attacker.state },
  })
  expect(exchanged.status()).toBe(200)
})

test('the guard sends a visitor to /login?redirect=... and returns there after sign-in', async ({
  page,
  account,
}) => {
  await page.goto('/process?step=2')
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/process?step=2')}`)
  await page.getByLabel('E-mail', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL('/process?step=2')
  await expect(landmarkOf(page, '/process', account)).toBeVisible()
})

test('log-out ends the server session and clears the tokens', async ({ page, account, mock }) => {
  const { before: tokens, since } = await startSession(page, mock, account)
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Log out' }).click()

  await expect(page).toHaveURL('/login')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect.poll(() => readTokens(page)).toEqual(NO_TOKENS)
  await expect(toasts(page)).toHaveCount(0)
  expect(describeCalls(await mock.requests(account.email, since), ['deleteSession', 'refreshToken'])).toEqual(
    ['deleteSession 200'],
  )
  // The browser's cookie session is gone, and so is the refresh token the tab held.
  expect(await (await page.request.get('/api/_auth/session')).json()).toEqual({})
  const refresh = await page.request.post('/api/refresh_token', {
    data: { refresh_token: tokens.refreshToken },
  })
  expect(refresh.status()).toBe(401)
  // Home asks to sign in again.
  await page.goto('/')
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent('/')}`)
})
