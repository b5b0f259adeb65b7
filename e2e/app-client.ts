// Calls through the app's own API client inside the page, so they take the app's whole path.
// The client is on `window.__authShell` in mock mode only (web/src/app/test-hook.ts). Without it this throws,
// rather than test something else.
import type { Page } from '@playwright/test'
import type { paths } from '../api/openapi.gen.ts'

export interface ApiCallResult {
  /** The final status the caller got; 0 when the call had not settled within the time allowed. */
  status: number
  /** The e-mail of the user in the answer, when there is one. */
  email: string | null
}

/** The API paths that answer a GET without parameters. */
export type PlainGetPath = {
  [P in keyof paths]: paths[P] extends { get: { parameters: { query?: never; path?: never } } } ? P : never
}[keyof paths]

/**
 * Sends `count` GET requests at once. After `withinMs`, pending ones read as status 0,
 * so a hung call fails an assertion rather than timing out.
 */
export async function callAppApiAtOnce(
  page: Page,
  path: PlainGetPath,
  count: number,
  withinMs = 8_000,
): Promise<ApiCallResult[]> {
  return page.evaluate(
    async ({ path, count, withinMs }) => {
      const hook = window.__authShell
      if (!hook) throw new Error('Failed to reach the app: no window.__authShell (is the app in mock mode?).')
      const emailOf = (body: unknown): string | null => {
        if (typeof body !== 'object' || body === null) return null
        const email = 'email' in body ? body.email : 'emailId' in body ? body.emailId : null
        return typeof email === 'string' ? email : null
      }
      const pending: ApiCallResult = { status: 0, email: null }
      return Promise.all(
        Array.from({ length: count }, () =>
          Promise.race([
            hook.api
              .GET(path, {})
              .then(({ response, data }) => ({ status: response.status, email: emailOf(data) })),
            new Promise<ApiCallResult>((resolve) => setTimeout(() => resolve(pending), withinMs)),
          ]),
        ),
      )
    },
    { path, count, withinMs },
  )
}
