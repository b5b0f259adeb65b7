// The demo with no server (docs/decisions/021-serverless-demo.md): the mock server runs in the page behind MSW.
// One visitor's way through it, using only the screens and the QA panel.
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, test as base, type Page } from '@playwright/test'
import { ERROR_CATALOGUE } from '../api/error-catalogue.ts'
import { submitSignUpForm } from './fixtures.ts'
import { serveStatic } from './static-server.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

const test = base.extend<object, { demoOrigin: string }>({
  // Built once per worker into a directory of its own (a few seconds), served until the worker ends.
  demoOrigin: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture list from this pattern
    async ({}, use, workerInfo) => {
      const outDir = join(root, `test-results/e2e-demo/${process.pid}-${workerInfo.workerIndex}`)
      execFileSync(
        process.execPath,
        [
          join(root, 'node_modules/vite/bin/vite.js'),
          'build',
          '--config',
          'demo/vite.config.ts',
          '--logLevel',
          'warn',
        ],
        {
          cwd: root,
          env: { ...process.env, DEMO_OUT_DIR: outDir },
          stdio: ['ignore', 'ignore', 'inherit'],
        },
      )
      const server = await serveStatic(outDir)
      await use(server.origin)
      await server.close()
      rmSync(outDir, { recursive: true, force: true })
    },
    { scope: 'worker', timeout: 120_000 },
  ],
  baseURL: async ({ demoOrigin }, use) => use(demoOrigin),
})

const PASSWORD = 'a long enough demo passphrase'
const row = (id: string) => {
  const found = ERROR_CATALOGUE.find((one) => one.id === id)
  if (!found) throw new Error(`No catalogue row ${id}`)
  return found
}

const readTokens = (page: Page) =>
  page.evaluate(() => ({
    accessToken: sessionStorage.getItem('accessToken'),
    refreshToken: sessionStorage.getItem('refreshToken'),
    serviceToken: sessionStorage.getItem('serviceToken'),
  }))
const NO_TOKENS = { accessToken: null, refreshToken: null, serviceToken: null }

async function openPanel(page: Page) {
  const toggle = page.getByRole('button', { name: 'QA panel' })
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
  return page.getByRole('region', { name: 'QA panel' })
}

test('sign-up with the code from the QA panel, log-out, sign-in, then an expiry armed from the panel', async ({
  page,
}) => {
  test.setTimeout(90_000)
  const email = `demo-${Date.now().toString(36)}@example.test`
  const name = 'Grace Hopper'

  // Nothing but files answers here: the API is the worker's.
  expect((await page.request.get('/api/_auth/session')).headers()['content-type']).toContain('text/html')

  await submitSignUpForm(page, { name, email, password: PASSWORD })
  await expect(page).toHaveURL('/new/otp')
  await expect(page.getByRole('heading', { name: 'Verify your e-mail address' })).toBeVisible()

  const panel = await openPanel(page)
  await panel.getByRole('textbox', { name: 'Address' }).fill(email)
  await panel.getByRole('button', { name: 'Show the mail' }).click()
  const mail = panel.getByRole('list', { name: 'Mailbox' }).getByRole('listitem')
  await expect(mail).toHaveCount(1)
  const code = /^signup: (\d{6}) /.exec((await mail.textContent()) ?? '')?.[1]
  expect(code).toMatch(/^\d{6}$/)
  await page.getByRole('button', { name: 'QA panel' }).click()

  await page.getByLabel('6-digit code').fill(code!)
  await page.getByRole('button', { name: 'Verify' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { name: `Welcome, ${name}` })).toBeVisible()
  expect(Object.values(await readTokens(page)).every((value) => (value ?? '').length > 0)).toBe(true)

  const nav = page.getByRole('navigation', { name: 'Main' })
  await nav.getByRole('link', { name: 'Log out' }).click()
  await expect(page).toHaveURL('/login')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect.poll(() => readTokens(page)).toEqual(NO_TOKENS)

  await page.getByLabel('E-mail', { exact: true }).fill(email)
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL('/')
  await expect(page.getByRole('heading', { name: `Welcome, ${name}` })).toBeVisible()

  // The catalogue's row: the access token expired and the refresh refused; armed one after the other for this account.
  const expiry = row('refresh-fails-rejected')
  const controls = await openPanel(page)
  for (const { name: scenario } of expiry.arm) {
    await controls.getByRole('combobox', { name: 'Scenario' }).selectOption(scenario)
    await controls.getByRole('button', { name: 'Arm for my account' }).click()
    await expect(controls.getByRole('status')).toHaveText(`Armed ${scenario} for ${email}.`)
  }
  await page.getByRole('button', { name: 'QA panel' }).click()
  await nav.getByRole('link', { name: 'Help' }).click()

  await expect(page.getByRole('alert')).toHaveText(expiry.expect.toast!)
  await expect(page).toHaveURL(new RegExp(`${expiry.expect.route}(\\?|$)`))
  await expect.poll(() => readTokens(page)).toEqual(NO_TOKENS)
})
