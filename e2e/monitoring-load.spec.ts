// The supporting services stay out of the first load (docs/decisions/012-first-load.md).
// They come after the form and the load event: at idle, or at once on a first key press.
import { markFormAppearance, readFirstLoad } from './first-load-timing.ts'
import { expect, test } from './fixtures.ts'

const MONITORING =
  /\/assets\/(supporting-services|error-reporting|sentry-sdk|recorder|entry)-[^/]*\.js$|^\/ingest\/|^\/api\/\d+\/envelope\/?$/

test('/login left alone: monitoring loads and first calls after the form is up and the page has loaded', async ({
  page,
}) => {
  await markFormAppearance(page)
  const recorderStarted = page.waitForResponse(
    (one) => one.request().method() === 'POST' && new URL(one.url()).pathname === '/ingest/v1/web/start',
  )
  const errorReporterSent = page.waitForRequest((one) =>
    /\/api\/\d+\/envelope\/?$/.test(new URL(one.url()).pathname),
  )
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await recorderStarted
  await errorReporterSent
  const { formAt, loadEnd, resources } = await readFirstLoad(page)
  const monitoring = resources.filter((one) => MONITORING.test(one.path))
  expect(monitoring.map((one) => one.path)).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/sentry-sdk-/),
      expect.stringMatching(/recorder-/),
      '/ingest/v1/web/start',
    ]),
  )
  expect(loadEnd).toBeGreaterThan(0)
  const early = monitoring.filter((one) => one.startTime < Math.max(formAt, loadEnd))
  expect(early, 'monitoring requested before the form was up and the page had loaded').toEqual([])
})

test('/login: idle brings the error page ahead but no monitoring; a first key press brings it, the recorder starting with its start call', async ({
  page,
}) => {
  const requested: string[] = []
  page.on('request', (one) => requested.push(new URL(one.url()).pathname))
  const errorPageFetched = page.waitForRequest((one) => /\/assets\/error-page-[^/]*\.js$/.test(one.url()))
  await page.goto('/login')
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible()
  await errorPageFetched // the page went idle
  expect(requested.filter((path) => MONITORING.test(path))).toEqual([])

  const recorderStarted = page.waitForResponse(
    (one) => one.request().method() === 'POST' && new URL(one.url()).pathname === '/ingest/v1/web/start',
  )
  await page.keyboard.press('Shift')
  await recorderStarted
  const { loadEnd, resources } = await readFirstLoad(page, { marked: false })
  const recorder = resources.filter((one) => one.path.startsWith('/ingest/'))
  expect(recorder.filter((one) => one.startTime < loadEnd)).toEqual([])
  expect(recorder[0]?.path).toBe('/ingest/v1/web/start')
})
