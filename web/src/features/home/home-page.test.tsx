import { screen, waitFor } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { ADA, callsOf, renderApp, useMockServer } from '../../test/app-harness.tsx'

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

/** Back to home: loads GET /api/me again. */
async function reloadHome(app: Awaited<ReturnType<typeof signedInApp>>) {
  await app.router.navigate('/help')
  await screen.findByRole('heading', { name: 'Help' })
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
    expect(callsOf(app.core, 'refreshToken')).toHaveLength(1)
    expect(callsOf(app.core, 'getMe').map((c) => (c as { status: number }).status)).toEqual([200, 401, 200])
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
      await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'))
      expect(app.storage.getItem('accessToken')).toBeNull()
      expect(app.storage.getItem('refreshToken')).toBeNull()
      expect(app.storage.getItem('serviceToken')).toBeNull()
      expect(app.store.getSnapshot().timerRunning).toBe(false)
      expect(callsOf(app.core, 'refreshToken')).toHaveLength(refreshes)
    },
  )

  test('a second 401 after the refresh: no second refresh, the expired toast', async () => {
    const app = await signedInApp()
    app.core.ops.scenarios.arm({ name: 'access-token-expired', email: ADA.email, times: 2 })
    await reloadHome(app)
    expect(await screen.findByText('Your session has expired. Please login again.')).toBeInTheDocument()
    await waitFor(() => expect(app.router.state.location.pathname).toBe('/login'))
    expect(callsOf(app.core, 'refreshToken')).toHaveLength(1)
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
    expect(callsOf(app.core, 'refreshToken')).toHaveLength(0)
  })

  test('a server fault on GET /api/me is retried once', async () => {
    const app = await signedInApp()
    app.core.ops.scenarios.arm({ name: 'server-error', operation: 'getMe', status: 503 })
    await reloadHome(app)
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeInTheDocument()
    expect(callsOf(app.core, 'getMe').map((c) => (c as { status: number }).status)).toEqual([200, 503, 200])
  })

  test('a tab whose cookie session has a user but no tokens is sent to sign in', async () => {
    const app = await signedInApp()
    await app.router.navigate('/login')
    app.storage.clear() // as in a new tab: the cookie is shared, sessionStorage is not
    app.store.start()
    await waitFor(() =>
      expect(app.store.getSnapshot()).toMatchObject({ ready: true, isLoggedIn: true, hasTokens: false }),
    )
    await app.router.navigate('/')
    await waitFor(() =>
      expect(app.router.state.location.pathname + app.router.state.location.search).toBe(
        '/login?redirect=%2F',
      ),
    )
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument()
    expect(callsOf(app.core, 'getMe').map((c) => (c as { status: number }).status)).toEqual([200])
  })

  test('a failing session endpoint is an empty session: a visitor on / is sent to /login', async () => {
    const app = await renderApp('/', { mock: {} })
    app.core.ops.scenarios.arm({ name: 'session-unavailable' })
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument()
    expect(app.router.state.location.search).toBe('?redirect=%2F')
  })
})
