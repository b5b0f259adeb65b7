// The API reference at /__mock/docs renders under the server's own security headers and calls no other host.
// The QA panel's link to it is checked in web/src/features/qa/qa-panel.test.tsx.
import { expect, test } from './fixtures.ts'

test('the API reference renders both documents from this server alone', async ({
  page,
  context,
  baseURL,
}) => {
  // Two renders of a 1 MB viewer: a few seconds each on two loaded cores.
  test.setTimeout(60_000)
  const server = new URL(baseURL!).origin // http://127.0.0.1:<port>
  const elsewhere: string[] = []
  context.on('request', (request) => {
    // By origin: Redoc's search worker is a blob: URL of the page's own origin, which no network sees.
    if (new URL(request.url()).origin !== server) elsewhere.push(request.url())
  })
  await page.goto('/__mock/docs')
  await expect(page.getByRole('heading', { name: 'Sign in with e-mail and password.' })).toBeVisible()
  await page
    .getByRole('navigation', { name: 'API documents' })
    .getByRole('link', { name: /^Control surface/ })
    .click()
  await expect(page).toHaveURL('/__mock/docs?document=control')
  await expect(page.getByRole('heading', { name: 'Arm a scenario.' })).toBeVisible()
  expect(elsewhere).toEqual([])
})
