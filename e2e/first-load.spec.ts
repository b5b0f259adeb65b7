// What a first visit to /login fetches, as Chromium receives it (docs/decisions/012-first-load.md).
// No lazy chunk comes before the sign-in form is on screen.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { abortChunk, countDocumentLoads, failHeldChunk, holdChunk, retriesFailedImports } from './chunks.ts'
import { markFormAppearance, readFirstLoad } from './first-load-timing.ts'
import { clickMainNav, expect, signInThroughForm, test } from './fixtures.ts'

test('a first visit gets every script, style and the page itself brotli-compressed', async ({ page }) => {
  const encodings = new Map<string, string | null>()
  page.on('response', (response) => {
    const { pathname } = new URL(response.url())
    if (pathname !== '/login' && !/\.(js|css)$/.test(pathname)) return
    // A response still being read as the test ends has nothing left to say: its headers are not waited for.
    response
      .allHeaders()
      .then((headers) => encodings.set(pathname, headers['content-encoding'] ?? null))
      .catch(() => undefined)
  })
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect.poll(() => encodings.has('/login')).toBe(true)
  expect(encodings.size).toBeGreaterThan(1)
  expect([...encodings].filter(([, encoding]) => encoding !== 'br')).toEqual([])
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /learning academy/)
})

test('robots.txt and favicon.ico are themselves, and a missing file is a 404', async ({ request }) => {
  const robots = await request.get('/robots.txt')
  expect(robots.headers()['content-type']).toMatch(/^text\/plain/)
  expect(await robots.text()).toContain('User-agent: *')
  const icon = await request.get('/favicon.ico')
  expect(icon.status()).toBe(200)
  expect(icon.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/)
  expect((await request.get('/apple-touch-icon.png')).status()).toBe(404)
})

/** Chunks /login has no use for before its form is on screen (Vite names a chunk after its module). */
const NOT_FOR_LOGIN =
  /\/assets\/(home-page|help-page|process-page|signup-page|otp-page|forgot-page|update-password-page|logout-page|callback-page|schedule-picker|error-page|supporting-services|error-reporting|sentry-sdk|recorder|entry|toaster)-[^/]*\.js$/

test('/login renders from its own scripts: no other screen, no date picker, no error page, no monitoring, no toast area', async ({
  page,
}) => {
  await markFormAppearance(page)
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  const { formAt, resources } = await readFirstLoad(page)
  const scripts = resources.filter((one) => one.path.endsWith('.js') && one.startTime <= formAt)
  expect(scripts.length).toBeGreaterThan(0)
  expect(scripts.map((one) => one.path).filter((path) => NOT_FOR_LOGIN.test(path))).toEqual([])
})

test('the mock server writes the runtime configuration into the page: no request for config.json, and it is the server’s (the QA panel shows)', async ({
  page,
}) => {
  const configRequests: string[] = []
  page.on('request', (one) => {
    if (one.url().endsWith('config.json')) configRequests.push(new URL(one.url()).pathname)
  })
  await page.goto('/new/otp')
  await expect(page.getByRole('button', { name: 'QA panel' })).toBeVisible()
  expect(configRequests).toEqual([])
})

test('on a static host (the page as built, no configuration in it), config.json is read from where the app is, whatever the path the page was opened at', async ({
  page,
}) => {
  // The built index.html as a static host serves it for a deep link: the file, with its preload of config.json.
  const built = readFileSync(join(process.env.E2E_WEB_DIR!, 'index.html'), 'utf8')
  expect(built).toContain('config.json')
  await page.route('**/new/otp', (route) => route.fulfill({ contentType: 'text/html', body: built }))
  const configRequests: string[] = []
  page.on('request', (one) => {
    if (one.url().endsWith('config.json')) configRequests.push(new URL(one.url()).pathname)
  })
  const served = page.waitForResponse((one) => one.url().endsWith('config.json'))
  await page.goto('/new/otp')
  expect((await served).status()).toBe(200)
  // Read once, ahead of the app (the page's preload), and taken as the server's: the QA panel shows.
  await expect(page.getByRole('button', { name: 'QA panel' })).toBeVisible()
  expect(configRequests).toEqual(['/config.json'])
})

test('chunks fetched in the background that cannot be loaded leave the page alone: no reload, the typing kept, no error page', async ({
  page,
  allowedConsoleErrors,
}) => {
  allowedConsoleErrors.push(/Failed to load resource: net::ERR_FAILED/)
  // Fetched without the visitor asking: the error page ahead of need and the QA panel at idle, monitoring at the
  // first key press.
  const background = ['error-page', 'qa-panel', 'supporting-services']
  for (const name of background) await abortChunk(page, name)
  const failed = new Set<string>()
  page.on('requestfailed', (request) => {
    const name = background.find((candidate) => new URL(request.url()).pathname.includes(`/${candidate}-`))
    if (name) failed.add(name)
  })
  const loads = countDocumentLoads(page)
  await page.goto('/login')
  const email = page.getByLabel('E-mail', { exact: true })
  await email.pressSequentially('typed@example.test')
  await expect.poll(() => [...failed].sort()).toEqual([...background].sort())
  // Two turns of the page's event loop after the last failure: a reload would have begun by now.
  await page.evaluate(() => new Promise((resolve) => setTimeout(() => setTimeout(resolve, 0), 0)))
  expect(loads.count, 'document loads').toBe(1)
  await expect(email).toHaveValue('typed@example.test')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'QA panel' })).toHaveCount(0)
})

test("the QA panel's stylesheet that cannot be loaded leaves the page alone: the panel out, no error page", async ({
  page,
  consoleLines,
  allowedConsoleErrors,
}) => {
  allowedConsoleErrors.push(/Failed to load resource: net::ERR_FAILED/)
  // Vite checks a chunk's stylesheets apart from its script, and rejects the import when one fails.
  await page.route('**/assets/qa-panel-*.css', (route) => route.abort('failed'))
  const loads = countDocumentLoads(page)
  await page.goto('/login')
  const email = page.getByLabel('E-mail', { exact: true })
  await email.pressSequentially('typed@example.test')
  // The panel's loader has taken the failure (before, it reached the error page, the typing lost).
  await expect
    .poll(() => consoleLines.filter((line) => line.startsWith('Failed to load the QA panel:')))
    .toHaveLength(1)
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect(email).toHaveValue('typed@example.test')
  expect(loads.count, 'document loads').toBe(1)
  await expect(page.getByRole('button', { name: 'QA panel' })).toHaveCount(0)
})

test("a screen that cannot be loaded, with the error page's own chunk failing too: the error page's plain view, not a blank page", async ({
  page,
  allowedConsoleErrors,
}) => {
  allowedConsoleErrors.push(
    /Failed to load resource: net::ERR_FAILED/,
    /Failed to fetch dynamically imported module/,
  )
  await abortChunk(page, 'signup-page')
  await abortChunk(page, 'error-page')
  const loads = countDocumentLoads(page)
  await page.goto('/signup')
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible()
  await expect(page).toHaveTitle('Internal Server Error · Auth shell')
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible()
  expect(loads.count, 'the first load and the chunk-load rule’s one reload').toBe(2)
})

test('a screen left before its chunk is in, whose chunk then fails: no reload under the screen the user went to; the next visit loads it', async ({
  page,
  allowedConsoleErrors,
}) => {
  allowedConsoleErrors.push(/Failed to load resource: net::ERR_FAILED/)
  const held = await holdChunk(page, 'signup-page')
  const loads = countDocumentLoads(page)
  await page.goto('/login')
  const retries = await retriesFailedImports(page)
  await page.getByRole('link', { name: 'Create an account' }).click()
  await expect.poll(() => held.length).toBe(1)
  await page.goBack() // the user gives up waiting
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await expect(page.getByRole('progressbar', { name: 'Loading' })).toBeHidden()
  const email = page.getByLabel('E-mail', { exact: true })
  await email.fill('typed@example.test')
  await failHeldChunk(page, 'signup-page', held[0]!)
  expect(loads.count, 'document loads').toBe(1)
  await expect(email).toHaveValue('typed@example.test')
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toHaveCount(0)
  await page.getByRole('link', { name: 'Create an account' }).click()
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible()
  expect(loads.count, 'document loads (a browser that keeps the failed import: the rule’s one reload)').toBe(
    retries ? 1 : 2,
  )
})

test("a left screen's chunk that fails while the next screen's chunk is still on its way: no reload, and the next screen comes", async ({
  page,
  account,
  allowedConsoleErrors,
}) => {
  allowedConsoleErrors.push(/Failed to load resource: net::ERR_FAILED/)
  await signInThroughForm(page, account)
  const held = { process: await holdChunk(page, 'process-page'), help: await holdChunk(page, 'help-page') }
  const loads = countDocumentLoads(page)
  await clickMainNav(page, '/process')
  await expect.poll(() => held.process.length).toBe(1)
  await clickMainNav(page, '/help') // gives up on Process; Help's chunk is held too
  await expect.poll(() => held.help.length).toBe(1)
  await failHeldChunk(page, 'process-page', held.process[0]!)
  expect(loads.count, 'document loads').toBe(0)
  await held.help[0]!.continue()
  await expect(page.getByRole('heading', { name: 'Help', exact: true })).toBeVisible()
  expect(loads.count, 'document loads').toBe(0)
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toHaveCount(0)
})

test('the date picker’s chunk failing after the user has left /process: no reload, the typing on the next screen kept', async ({
  page,
  account,
  allowedConsoleErrors,
}) => {
  allowedConsoleErrors.push(/Failed to load resource: net::ERR_FAILED/)
  await signInThroughForm(page, account)
  const retries = await retriesFailedImports(page)
  const held = await holdChunk(page, 'schedule-picker')
  const loads = countDocumentLoads(page)
  await clickMainNav(page, '/process')
  await expect(page.getByRole('heading', { name: 'Process', level: 1 })).toBeVisible()
  await expect.poll(() => held.length).toBe(1)
  await clickMainNav(page, '/help')
  const search = page.getByRole('searchbox', { name: 'Search help' })
  await search.fill('how do I schedule')
  await failHeldChunk(page, 'schedule-picker', held[0]!)
  expect(loads.count, 'document loads').toBe(0)
  await expect(search).toHaveValue('how do I schedule')
  await clickMainNav(page, '/process') // the next visit asks again
  await expect(page.getByRole('textbox', { name: /^Schedule “/ }).first()).toBeVisible()
  expect(loads.count, 'document loads (a browser that keeps the failed import: the rule’s one reload)').toBe(
    retries ? 0 : 1,
  )
})

test('a screen asked for while the browser is offline: the error page, no reload into the offline page; back online, the next visit loads it', async ({
  page,
  context,
  allowedConsoleErrors,
}) => {
  allowedConsoleErrors.push(/Failed to load resource/, /Failed to fetch dynamically imported module/)
  const loads = countDocumentLoads(page)
  await page.goto('/login')
  const retries = await retriesFailedImports(page)
  await context.setOffline(true)
  await page.getByRole('link', { name: 'Create an account' }).click()
  await expect(page.getByRole('heading', { name: 'Internal Server Error' })).toBeVisible()
  expect(loads.count, 'document loads').toBe(1)
  await context.setOffline(false)
  await page.goBack()
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await page.getByRole('link', { name: 'Create an account' }).click()
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible()
  expect(loads.count, 'document loads (a browser that keeps the failed import: the rule’s one reload)').toBe(
    retries ? 1 : 2,
  )
})
