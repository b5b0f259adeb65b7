// Calls through the app's own API client from inside the page, so they take the app's whole path: the bearer
// header, the 401 rule with its single refresh, the HTTP retry, the session store.
//
// The app exposes no test hook, so this finds the client where React keeps it: the value of the services
// context (web/src/lib/services.ts), reached from the root element's fiber. It reads React's internals
// (`__reactContainer$…`, fiber `child`/`sibling`/`memoizedProps`), stable across React 17 to 19; if React
// changes them, this throws a clear error rather than testing something else.
import type { Page } from '@playwright/test'

export interface ApiCallResult {
  /** The final status the caller got; 0 when the call had not settled within the time allowed. */
  status: number
  /** The e-mail of the user in the answer, when there is one. */
  email: string | null
}

/**
 * Sends `count` GET requests to `path` through the app's client at once; resolves when all have settled, or after
 * `withinMs` (real time) with status 0 for those still pending, so a hung call fails an assertion, not the test's time.
 */
export async function callAppApiAtOnce(
  page: Page,
  path: string,
  count: number,
  withinMs = 8_000,
): Promise<ApiCallResult[]> {
  return page.evaluate(
    async ({ path, count, withinMs }) => {
      type Fiber = { child: Fiber | null; sibling: Fiber | null; memoizedProps?: { value?: unknown } }
      type Client = {
        GET(path: string): Promise<{ response: Response; data?: { email?: string; emailId?: string } }>
      }
      const root = document.getElementById('root')
      const key = root && Object.keys(root).find((name) => name.startsWith('__reactContainer$'))
      if (!root || !key) throw new Error('Failed to reach the app: no React root on #root.')
      const stack: (Fiber | null)[] = [(root as unknown as Record<string, Fiber>)[key] ?? null]
      let client: Client | null = null
      while (stack.length > 0 && client === null) {
        const fiber = stack.pop()
        if (!fiber) continue
        const value = fiber.memoizedProps?.value as { api?: Client } | undefined
        if (value?.api && typeof value.api.GET === 'function') client = value.api
        stack.push(fiber.sibling, fiber.child)
      }
      if (client === null) throw new Error('Failed to reach the app: no services context with an API client.')
      const api = client
      const pending = { status: 0, email: null }
      return Promise.all(
        Array.from({ length: count }, () =>
          Promise.race([
            api.GET(path).then(({ response, data }) => ({
              status: response.status,
              email: data?.email ?? data?.emailId ?? null,
            })),
            new Promise<typeof pending>((resolve) => setTimeout(() => resolve(pending), withinMs)),
          ]),
        ),
      )
    },
    { path, count, withinMs },
  )
}
