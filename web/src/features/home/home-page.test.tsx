import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { ADA, callsOf, renderApp, useMockServer } from '../../test/app-harness.tsx'
import { createStubApi, renderPage } from '../../test/page-harness.tsx'
import { HomePage } from './home-page.tsx'

useMockServer()

/** Signed in through the UI, then on home. */
async function signedInApp() {
  const app = await renderApp('/login')
  await app.user.type(await screen.findByLabelText('E-mail'), ADA.email)
  await app.user.type(screen.getByLabelText('Password'), ADA.password)
  await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
  await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })
  return app
}

/**
 * Back to home, through a page that calls nothing, so an armed scenario meets home's first call.
 */
async function reloadHome(app: Awaited<ReturnType<typeof signedInApp>>) {
  await app.router.navigate('/nowhere')
  await screen.findByRole('heading', { name: 'Page not found' })
  await app.router.navigate('/')
}

describe('home and the session life cycle in the app', () => {
  test('legacy user fields still greet by name', async () => {
    const app = await signedInApp()
    app.core.ops.scenarios.arm({ name: 'legacy-user-fields', email: ADA.email })
    await reloadHome(app)
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeInTheDocument()
  })

  test('an expired access token: one refresh, one retry, still greeted', async () => {
    const app = await signedInApp()
    const before = app.storage.getItem('accessToken')
    app.core.ops.scenarios.arm({ name: 'access-token-expired', email: ADA.email })
    await reloadHome(app)
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeInTheDocument()
    expect(await callsOf(app.core, 'refreshToken')).toHaveLength(1)
    expect((await callsOf(app.core, 'getMe')).map((c) => (c as { status: number }).status)).toEqual([
      200, 401, 200,
    ])
    expect(app.storage.getItem('accessToken')).not.toBe(before)
  })

  const forced = [
    { scenario: 'access-token-invalid', toast: 'Invalid authentication. Please login again.', refreshes: 0 },
    {
      scenario: 'unauthorized-no-message',
      toast: 'Authentication failed. Please login again.',
      refreshes: 0,
    },
    { scenario: 'refresh-rejected', toast: 'Session expired. Please login again.', refreshes: 1 },
    { scenario: 'refresh-unsuccessful', toast: 'Session expired. Please login again.', refreshes: 1 },
    { scenario: 'refresh-incomplete', toast: 'Session expired. Please login again.', refreshes: 1 },
  ] as const

  test.each(forced)(
    '$scenario: toast "$toast", tokens cleared, /login',
    async ({ scenario, toast, refreshes }) => {
      const app = await signedInApp()
      if (scenario.startsWith('refresh-')) {
        app.core.ops.scenarios.arm({ name: 'access-token-expired', email: ADA.email })
      }
      app.core.ops.scenarios.arm({ name: scenario, email: ADA.email })
      await reloadHome(app)
      expect(await screen.findByText(toast)).toBeInTheDocument()
      await waitFor(() => expect(app.router.location.pathname).toBe('/login'))
      expect(app.storage.getItem('accessToken')).toBeNull()
      expect(app.storage.getItem('refreshToken')).toBeNull()
      expect(app.storage.getItem('serviceToken')).toBeNull()
      expect(app.store.getSnapshot().timerRunning).toBe(false)
      expect(await callsOf(app.core, 'refreshToken')).toHaveLength(refreshes)
    },
  )

  test('a second 401 after the refresh: no second refresh, the expired toast', async () => {
    const app = await signedInApp()
    app.core.ops.scenarios.arm({ name: 'access-token-expired', email: ADA.email, times: 2 })
    await reloadHome(app)
    expect(await screen.findByText('Your session has expired. Please login again.')).toBeInTheDocument()
    await waitFor(() => expect(app.router.location.pathname).toBe('/login'))
    expect(await callsOf(app.core, 'refreshToken')).toHaveLength(1)
  })

  test("another refusal shows the server's message", async () => {
    const app = await signedInApp()
    app.core.ops.scenarios.arm({
      name: 'unauthorized-other',
      email: ADA.email,
      message: 'Your account was suspended.',
    })
    await reloadHome(app)
    expect(await screen.findByText('Your account was suspended.')).toBeInTheDocument()
    expect(await callsOf(app.core, 'refreshToken')).toHaveLength(0)
  })

  test('a server fault on GET /api/me is retried once', async () => {
    const app = await signedInApp()
    app.core.ops.scenarios.arm({ name: 'server-error', operation: 'getMe', status: 503 })
    await reloadHome(app)
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeInTheDocument()
    expect((await callsOf(app.core, 'getMe')).map((c) => (c as { status: number }).status)).toEqual([
      200, 503, 200,
    ])
  })

  test('a tab whose cookie session has a user but no tokens is sent to sign in', async () => {
    const app = await signedInApp()
    await app.router.navigate('/login')
    // Wait for the /login screen, not just the router. Otherwise home's guard may still be mounted,
    // its redirect effect would not run again, and the tab would stay on /.
    await screen.findByRole('heading', { name: 'Sign in' })
    app.storage.clear() // as in a new tab: the cookie is shared, sessionStorage is not
    app.store.start()
    await waitFor(() =>
      expect(app.store.getSnapshot()).toMatchObject({ ready: true, isLoggedIn: true, hasTokens: false }),
    )
    await app.router.navigate('/')
    await waitFor(() =>
      expect(app.router.location.pathname + app.router.location.search).toBe('/login?redirect=%2F'),
    )
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument()
    expect((await callsOf(app.core, 'getMe')).map((c) => (c as { status: number }).status)).toEqual([200])
  })

  test('a failing session endpoint is an empty session: a visitor on / is sent to /login', async () => {
    const app = await renderApp('/', { mock: {} })
    app.core.ops.scenarios.arm({ name: 'session-unavailable' })
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument()
    expect(app.router.location.search).toBe('?redirect=%2F')
  })
})

describe('home content', () => {
  test('greeting, account details, the device, what is next, and the links on', async () => {
    const app = await signedInApp()
    const account = screen.getByRole('region', { name: 'Your account' })
    expect(within(account).getByText(ADA.email)).toBeInTheDocument()
    const since = await within(account).findByRole('time')
    const loggedInAt = new Date(since.getAttribute('datetime')!).getTime()
    expect(Math.abs(Date.now() - loggedInAt)).toBeLessThan(60_000)
    expect(within(account).getByText(/desktop$/)).toBeInTheDocument() // jsdom: another browser, desktop
    const next = screen.getByRole('region', { name: 'What is next' })
    expect(await within(next).findByText('Complete your learner profile')).toBeInTheDocument()
    expect(within(next).getByText('Not scheduled yet.')).toBeInTheDocument()
    expect(within(next).getByRole('link', { name: 'Go to your process' })).toHaveAttribute('href', '/process')
    const links = screen.getByRole('navigation', { name: 'Shortcuts' })
    expect(within(links).getByRole('link', { name: 'Help' })).toHaveAttribute('href', '/help')
    expect(await callsOf(app.core, 'getMe')).toHaveLength(1)
  })

  test('the next step shows its scheduled time', async () => {
    const app = await signedInApp()
    const { data } = await app.services.api.GET('/api/process')
    const profile = data!.steps.find((step) => step.title === 'Complete your learner profile')!
    await app.services.api.PATCH('/api/process/steps/{id}', {
      params: { path: { id: profile.id } },
      body: { scheduled_at: '2030-05-01T09:30:00.000Z' },
    })
    await reloadHome(app)
    const next = await screen.findByRole('region', { name: 'What is next' })
    expect(await within(next).findByRole('time')).toHaveAttribute('datetime', '2030-05-01T09:30:00.000Z')
  })

  test('a process that cannot be loaded does not hide the rest of home', async () => {
    const app = await signedInApp()
    app.core.ops.scenarios.arm({ name: 'server-error', operation: 'getProcess', status: 503, times: 2 })
    await reloadHome(app)
    const next = await screen.findByRole('region', { name: 'What is next' })
    expect(await within(next).findByRole('alert')).toHaveTextContent('Your process could not be loaded.')
    expect(screen.getByRole('region', { name: 'Your account' })).toBeInTheDocument()
  })

  test('a failing load of the user: the error, and a way to try again', async () => {
    const app = await signedInApp()
    app.core.ops.scenarios.arm({ name: 'server-error', operation: 'getMe', status: 500, times: 2 })
    await reloadHome(app)
    expect(await screen.findByRole('alert')).toHaveTextContent('The server had a problem. Please try again.')
    await app.user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeInTheDocument()
  })
})

describe('home alone', () => {
  const user = { id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' }
  const step = (title: string, status: string) => ({ id: title, title, status, scheduled_at: null })

  test('loading', () => {
    renderPage(<HomePage />, { api: createStubApi({}) })
    expect(screen.getByText('Loading your account…')).toHaveAttribute('aria-busy', 'true')
  })

  test.each([
    { name: 'no steps', steps: [], text: 'Your process has no steps yet.' },
    { name: 'all done', steps: [step('One', 'done')], text: 'You have completed every step. Well done!' },
  ])('what is next with $name', async ({ steps, text }) => {
    renderPage(<HomePage />, {
      api: createStubApi({
        '/api/me': user,
        '/api/_auth/session': { user, loggedInAt: '2030-01-01T08:00:00.000Z' },
        '/api/process': { steps },
      }),
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    })
    expect(await screen.findByText(text)).toBeInTheDocument()
    expect(screen.getByText('Safari on iOS, mobile')).toBeInTheDocument()
  })
})
