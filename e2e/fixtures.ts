// Fixtures of the e2e suite: the mock server's control surface, a fresh account per test (made through
// the API and the mailbox, so tests run in parallel without colliding), a signed-in page, and a guard
// that fails any test whose page threw or logged an unexpected console error.
import { randomUUID } from 'node:crypto'
import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test'

export interface Mail {
  to: string
  purpose: string
  code?: string
}

export interface JournalEntry {
  seq: number
  method: string
  path: string
  operation?: string
  status: number
  email?: string
}

export interface MockControl {
  arm(scenario: Record<string, unknown>): Promise<void>
  advanceClock(ms: number): Promise<void>
  mailbox(email: string): Promise<Mail[]>
  latestCode(email: string, purpose: string): Promise<string>
  requests(email: string, since?: number): Promise<JournalEntry[]>
  lastSeq(): Promise<number>
}

export interface Account {
  email: string
  password: string
  name: string
}

export const PASSWORD = 'a long enough e2e passphrase'

function createMockControl(request: APIRequestContext): MockControl {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON of the control surface, typed by each caller
  const ok = async (response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<any> => {
    if (!response.ok())
      throw new Error(
        `Failed to drive the mock server: ${response.url()} answered ${response.status()} ${await response.text()}`,
      )
    return response.json()
  }
  const control: MockControl = {
    arm: async (scenario) => void (await ok(await request.post('/__mock/scenarios', { data: scenario }))),
    advanceClock: async (ms) =>
      void (await ok(await request.post('/__mock/clock', { data: { advance_ms: ms } }))),
    mailbox: async (email) =>
      (await ok(await request.get(`/__mock/mailbox?email=${encodeURIComponent(email)}`))).messages,
    async latestCode(email, purpose) {
      const code = (await control.mailbox(email)).filter((mail) => mail.purpose === purpose).at(-1)?.code
      if (!code) throw new Error(`Failed to read a code: no ${purpose} mail for ${email}.`)
      return code
    },
    requests: async (email, since) =>
      (
        await ok(
          await request.get(
            `/__mock/requests?email=${encodeURIComponent(email)}${since === undefined ? '' : `&since=${since}`}`,
          ),
        )
      ).requests,
    lastSeq: async () =>
      ((await ok(await request.get('/__mock/requests'))).requests.at(-1)?.seq as number | undefined) ?? 0,
  }
  return control
}

/** Makes a verified account through the API and the mailbox. */
export async function createAccount(
  request: APIRequestContext,
  mock: MockControl,
  label = 'e2e',
): Promise<Account> {
  const account = {
    email: `${label}-${randomUUID().slice(0, 8)}@example.test`,
    password: PASSWORD,
    name: `Learner ${label}`,
  }
  const signup = await request.post('/api/auth/signup', { data: account })
  expect(signup.status()).toBe(202)
  const code = await mock.latestCode(account.email, 'signup')
  expect(
    (
      await request.post('/api/auth/otp/verify', { data: { email: account.email, code, purpose: 'signup' } })
    ).status(),
  ).toBe(200)
  return account
}

/** Console messages a test expects; anything else logged as an error fails the test. */
const ALWAYS_ALLOWED = [/Failed to load resource: the server responded with a status of (4\d\d|5\d\d)/]

export const test = base.extend<{
  mock: MockControl
  account: Account
  /** Push a pattern here for console errors this test expects. */
  allowedConsoleErrors: RegExp[]
  consoleLines: string[]
  guard: void
}>({
  mock: async ({ request }, use) => use(createMockControl(request)),
  account: async ({ request, mock }, use) => use(await createAccount(request, mock)),
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture list from this pattern
  allowedConsoleErrors: async ({}, use) => use([]),
  consoleLines: async ({ page }, use) => {
    const lines: string[] = []
    page.on('console', (message) => lines.push(message.text()))
    await use(lines)
  },
  guard: [
    async ({ page, allowedConsoleErrors }, use) => {
      const problems: string[] = []
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`))
      page.on('console', (message) => {
        if (message.type() !== 'error') return
        const text = message.text()
        if ([...ALWAYS_ALLOWED, ...allowedConsoleErrors].some((pattern) => pattern.test(text))) return
        problems.push(`console error: ${text}`)
      })
      await use()
      expect(problems, 'the page threw or logged an unexpected error').toEqual([])
    },
    { auto: true },
  ],
})

/** Signs in through the login form and waits for home. */
export async function signInThroughForm(page: Page, account: Account): Promise<void> {
  await page.goto('/login')
  await page.getByLabel('E-mail').fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page.getByRole('heading', { name: `Welcome, ${account.name}` })).toBeVisible()
}

export const TOKEN_KEYS = ['accessToken', 'refreshToken', 'serviceToken'] as const

export async function readTokens(page: Page): Promise<Record<(typeof TOKEN_KEYS)[number], string | null>> {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((key) => [key, window.sessionStorage.getItem(key)])),
    [...TOKEN_KEYS],
  ) as Promise<Record<(typeof TOKEN_KEYS)[number], string | null>>
}

export { expect }
