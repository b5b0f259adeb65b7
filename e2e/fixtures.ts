// Fixtures of the e2e suite: the mock server's control surface, a fresh account per test, sign-in helpers.
// Fresh accounts let tests run in parallel. A guard fails any test whose pages threw or logged an error.
import { randomInt, randomUUID } from 'node:crypto'
import {
  test as base,
  expect,
  type APIRequestContext,
  type BrowserContext,
  type Page,
} from '@playwright/test'
import { signUpVerified } from '../harness/accounts.ts'
import { createMockClient, type JournalEntry, type MockClient } from '../api/mock-client.ts'

/** The mock server's control surface, as the `mock` fixture drives it. */
export type MockControl = MockClient

export interface Account {
  email: string
  password: string
  name: string
}

export const PASSWORD = 'a long enough e2e passphrase'

/** How long a test may wait for a mailed code, which lands as the call is answered. */
const CODE_WAIT_MS = 10_000

/**
 * A `fetch` over Playwright's request context, so calls carry its base URL and headers and show in the trace.
 */
function fetchThrough(request: APIRequestContext): (input: Request) => Promise<Response> {
  return async (input) => {
    const body = await input.arrayBuffer()
    const answer = await request.fetch(input.url, {
      method: input.method,
      // One connection per call. A kept-alive socket closed as idle mid-send fails the call with ECONNRESET.
      headers: { ...Object.fromEntries(input.headers), connection: 'close' },
      ...(body.byteLength > 0 && { data: Buffer.from(body) }),
      maxRedirects: 0,
    })
    const noBody = [204, 205, 304].includes(answer.status())
    return new Response(noBody ? null : new Uint8Array(await answer.body()), {
      status: answer.status(),
      headers: answer.headersArray().map(({ name, value }): [string, string] => [name, value]),
    })
  }
}

/**
 * The mock server's control surface through `request`, with MOCK_CONTROL_TOKEN when set (playwright.config.ts).
 */
function createMockControl(request: APIRequestContext, baseUrl: string): MockControl {
  return createMockClient({
    baseUrl,
    ...(process.env.MOCK_CONTROL_TOKEN && { controlToken: process.env.MOCK_CONTROL_TOKEN }),
    fetch: fetchThrough(request),
    codeWaitMs: CODE_WAIT_MS,
  })
}

/** A fresh address (the label says which test made it, for reading the journal by hand). */
export function createEmail(label = 'e2e'): string {
  return `${label}-${randomUUID().slice(0, 8)}@example.test`
}

/** A test title as the local part of an address: `forgot-code-update-pass`. */
function toLabel(title: string): string {
  return (
    title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .slice(0, 24)
      .replace(/^-+|-+$/g, '') || 'e2e'
  )
}

/** Makes a verified account through the API and the mailbox. */
export async function createAccount(
  request: APIRequestContext,
  mock: MockControl,
  baseUrl: string,
  label = 'e2e',
  name = `Learner ${label}`,
): Promise<Account> {
  const account = { email: createEmail(label), password: PASSWORD, name }
  await signUpVerified({ baseUrl, fetch: fetchThrough(request), mock }, account)
  return account
}

function requireBaseUrl(baseURL: string | undefined): string {
  if (!baseURL) throw new Error('Failed to find the mock server: no baseURL in playwright.config.ts.')
  return baseURL
}

/** Console messages a test expects; anything else logged as an error fails the test. */
const ALWAYS_ALLOWED = [/Failed to load resource: the server responded with a status of (4\d\d|5\d\d)/]

export const test = base.extend<{
  mock: MockControl
  account: Account
  /** Push a pattern here for console errors this test expects. */
  allowedConsoleErrors: RegExp[]
  /** Every console line of every page of the test's context, in order. */
  consoleLines: string[]
  guard: void
}>({
  // The suite plays the proxy the server trusts (playwright.config.ts: --trust-proxy 1).
  // One made-up address per test, so per-address rate limits never add up across the run.
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture list from this pattern
  extraHTTPHeaders: async ({}, use) =>
    use({ 'X-Forwarded-For': `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}` }),
  mock: async ({ request, baseURL }, use) => use(createMockControl(request, requireBaseUrl(baseURL))),
  account: async ({ request, mock, baseURL }, use, testInfo) =>
    use(await createAccount(request, mock, requireBaseUrl(baseURL), toLabel(testInfo.title))),
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture list from this pattern
  allowedConsoleErrors: async ({}, use) => use([]),
  consoleLines: async ({ context }, use) => {
    const lines: string[] = []
    context.on('console', (message) => lines.push(message.text()))
    await use(lines)
  },
  guard: [
    async ({ context, allowedConsoleErrors }, use) => {
      const problems: string[] = []
      context.on('weberror', (error) => problems.push(`page error: ${error.error().message}`))
      context.on('console', (message) => {
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

/** What each signed-in page shows once it is ready. */
export function landmarkOf(page: Page, path: string, account: Account) {
  if (path === '/') return page.getByRole('heading', { name: `Welcome, ${account.name}` })
  const heading = { '/help': 'Help', '/process': 'Process' }[path]
  if (!heading) throw new Error(`Failed to find the landmark of ${path}: not a signed-in page.`)
  return page.getByRole('heading', { name: heading, exact: true })
}

/**
 * Signs in through the login form and waits for `landing` (home by default).
 */
export async function signInThroughForm(page: Page, account: Account, landing = '/'): Promise<void> {
  await page.goto(landing === '/' ? '/login' : `/login?redirect=${encodeURIComponent(landing)}`)
  await page.getByLabel('E-mail', { exact: true }).fill(account.email)
  await page.getByLabel('Password', { exact: true }).fill(account.password)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await expect(page).toHaveURL(landing)
  await expect(landmarkOf(page, landing, account)).toBeVisible()
  await expectSettled(page)
}

/** Fills in and sends the sign-up form at `origin`. The caller checks where it lands. */
export async function submitSignUpForm(
  page: Page,
  person: { name: string; email: string; password: string },
  origin = '',
): Promise<void> {
  await page.goto(`${origin}/signup`)
  await page.getByLabel('Name', { exact: true }).fill(person.name)
  await page.getByLabel('E-mail', { exact: true }).fill(person.email)
  await page.getByLabel('Password', { exact: true }).fill(person.password)
  await page.getByRole('button', { name: 'Create account' }).click()
}

/** No call in flight and the session ready: the layout's loading bar is hidden. */
/** Goes to /help or /process through the header's main navigation (the caller waits for the page). */
export async function clickMainNav(page: Page, path: '/help' | '/process'): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: path === '/help' ? 'Help' : 'Process' })
    .click()
}

/** Holds the sign-out call (DELETE /api/_auth/session) until the returned function is called. */
export async function holdSignOut(page: Page): Promise<() => void> {
  let release: () => void = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  await page.route('**/api/_auth/session', async (route) => {
    if (route.request().method() !== 'DELETE') return route.fallback()
    await held
    await route.fallback()
  })
  return release
}

/** Throws the QA panel's test error (mock mode) and waits for the error page it leads to. */
export async function throwQaTestError(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'QA panel' }).click()
  await page
    .getByRole('region', { name: 'QA panel' })
    .getByRole('button', { name: 'Throw a test error' })
    .click()
  await expect(page.getByRole('heading', { name: 'Internal Server Error', level: 1 })).toBeVisible()
}

export async function expectSettled(page: Page): Promise<void> {
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toBeHidden()
}

export const TOKEN_KEYS = ['accessToken', 'refreshToken', 'serviceToken'] as const
export type StoredTokens = Record<(typeof TOKEN_KEYS)[number], string | null>

export async function readTokens(page: Page): Promise<StoredTokens> {
  return page.evaluate(
    (keys) => Object.fromEntries(keys.map((key) => [key, window.sessionStorage.getItem(key)])),
    [...TOKEN_KEYS],
  ) as Promise<StoredTokens>
}

export const NO_TOKENS: StoredTokens = { accessToken: null, refreshToken: null, serviceToken: null }

type Change = 'new' | 'same' | 'gone'

/** How each stored value compares with `before`: a refresh gives { new, new, same }. */
export function compareTokens(before: StoredTokens, after: StoredTokens): Record<keyof StoredTokens, Change> {
  const change = (key: keyof StoredTokens): Change =>
    after[key] === null ? 'gone' : after[key] === before[key] ? 'same' : 'new'
  return {
    accessToken: change('accessToken'),
    refreshToken: change('refreshToken'),
    serviceToken: change('serviceToken'),
  }
}

/** What a refresh leaves: new access and refresh tokens, the same service token. */
export const ROTATED = { accessToken: 'new', refreshToken: 'new', serviceToken: 'same' } as const

/** The toast area's messages (react-hot-toast gives an error toast the alert role). */
export function toasts(page: Page) {
  return page.getByRole('alert')
}

/** The operations of a journal, as `operation status` lines (easy to read in a failure). */
export function describeCalls(entries: JournalEntry[], operations?: readonly string[]): string[] {
  return entries
    .filter((entry) => !operations || operations.includes(entry.operation ?? ''))
    .map((entry) => `${entry.operation ?? `${entry.method} ${entry.path}`} ${entry.status}`)
}

/** Client-side navigation by the app's own links (the header's brand link goes home). */
export async function goHomeByLink(page: Page): Promise<void> {
  await page.getByRole('banner').getByRole('link', { name: 'Auth shell' }).click()
}

export { expect }

/**
 * Records every toast a page of `context` shows, so a test can tell "exactly once" after a toast timed out.
 */
export async function recordToasts(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const shown: string[] = []
    const seen = new WeakSet<Element>()
    Object.defineProperty(window, '__toastsShown', { value: shown })
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('[role="alert"], [role="status"]')) {
        const text = toast.textContent?.trim()
        if (!text || seen.has(toast) || toast.closest('[data-rht-toaster]') === null) continue
        seen.add(toast)
        shown.push(text)
      }
    }).observe(document, { childList: true, subtree: true, characterData: true })
  })
}

/** Every toast text the page has shown since it loaded (needs recordToasts). */
export async function toastsShown(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__toastsShown ?? [])
}
