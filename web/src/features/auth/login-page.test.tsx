import { screen, waitFor } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { ADA, ALAN, callsOf, renderApp, useMockServer } from '../../test/app-harness.tsx'

useMockServer()

async function fillLogin(app: Awaited<ReturnType<typeof renderApp>>, email: string, password: string) {
  await app.user.type(await screen.findByLabelText('E-mail'), email)
  if (password) await app.user.type(screen.getByLabelText('Password'), password)
}

describe('/login', () => {
  test('signs in, stores the three tokens and lands on home, greeted by name', async () => {
    const app = await renderApp('/login')
    expect(document.title).toBe('Sign in · Auth shell')
    await fillLogin(app, ADA.email, ADA.password)
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/')
    expect(app.storage.getItem('accessToken')).toMatch(/\S+/)
    expect(app.storage.getItem('refreshToken')).toMatch(/\S+/)
    expect(app.storage.getItem('serviceToken')).toMatch(/\S+/)
    await waitFor(() => expect(document.title).toBe('Home · Auth shell'))
  })

  test('checks the fields before calling: inline errors, no request', async () => {
    const app = await renderApp('/login')
    await app.user.click(await screen.findByRole('button', { name: 'Sign in' }))
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter your e-mail address.')
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Enter your password.')
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('aria-invalid', 'true')
    expect(await callsOf(app.core, 'login')).toHaveLength(0)
  })

  test('wrong credentials: a clear message, still on /login, nothing stored', async () => {
    const app = await renderApp('/login')
    await fillLogin(app, ADA.email, 'not-the-password')
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong e-mail or password.')
    expect(app.router.location.pathname).toBe('/login')
    expect(app.storage.length).toBe(0)
  })

  test("the server's field errors show inline", async () => {
    const app = await renderApp('/login')
    await app.user.type(await screen.findByLabelText('E-mail'), ADA.email)
    await app.user.click(screen.getByLabelText('Password'))
    await app.user.paste('x'.repeat(1100)) // over the contract's 1024: the server refuses the field
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true'))
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(/\S/)
  })

  test('busy while pending, and a second click sends nothing', async () => {
    const app = await renderApp('/login')
    app.core.ops.scenarios.arm({ name: 'latency', operation: 'login', delay_ms: 300 })
    await fillLogin(app, ADA.email, ADA.password)
    const submit = screen.getByRole('button', { name: 'Sign in' })
    await app.user.click(submit)
    expect(submit).toBeDisabled()
    expect(submit).toHaveTextContent('Signing in…')
    await app.user.click(submit)
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })
    expect(await callsOf(app.core, 'login')).toHaveLength(1)
  })

  test('an unverified account goes to /new/otp, with a code mailed', async () => {
    const app = await renderApp('/login')
    await fillLogin(app, ALAN.email, ALAN.password)
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('heading', { name: 'Verify your e-mail address' })).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/new/otp')
    expect(await app.mock.latestCode(ALAN.email, 'signup')).toMatch(/^\d{6}$/)
    await app.user.type(
      screen.getByLabelText('6-digit code'),
      await app.mock.latestCode(ALAN.email, 'signup'),
    )
    await app.user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByRole('heading', { name: 'Welcome, Alan Turing' })).toBeInTheDocument()
  })

  test('rate limiting shows the wait', async () => {
    const app = await renderApp('/login', { mock: { loginRateLimit: { max: 1, windowMs: 60_000 } } })
    await fillLogin(app, ADA.email, 'wrong-password-1')
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    await screen.findByText('Wrong e-mail or password.')
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    const wait = /^Too many attempts\. Please wait (1 minute|59 seconds) and try again\.$/
    expect(await screen.findByText(wait)).toBeInTheDocument()
  })

  test('"E-mail me a code" sends a login code and the code signs in', async () => {
    const app = await renderApp('/login')
    await fillLogin(app, ADA.email, '')
    await app.user.click(screen.getByRole('button', { name: 'E-mail me a code' }))
    expect(await screen.findByRole('heading', { name: 'Enter your sign-in code' })).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/otp')
    expect(screen.getByRole('button', { name: /^Resend code in \d+ s$/ })).toBeDisabled()
    await app.user.type(screen.getByLabelText('6-digit code'), await app.mock.latestCode(ADA.email, 'login'))
    await app.user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeInTheDocument()
  })

  test('a code from an address locked out by wrong passwords shows the wait, and signs no one in', async () => {
    const app = await renderApp('/login')
    await fillLogin(app, ADA.email, 'wrong-password-1')
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
      await waitFor(async () => expect(await callsOf(app.core, 'login')).toHaveLength(attempt + 1))
      await screen.findByText('Wrong e-mail or password.')
    }
    await app.user.click(screen.getByRole('button', { name: 'E-mail me a code' }))
    expect(await screen.findByRole('heading', { name: 'Enter your sign-in code' })).toBeInTheDocument()
    await app.user.type(screen.getByLabelText('6-digit code'), await app.mock.latestCode(ADA.email, 'login'))
    await app.user.click(screen.getByRole('button', { name: 'Verify' }))
    // The lock's 15 minutes, less what this test took (the mock server's clock runs in real time here).
    const wait = /^Too many attempts\. Please wait (15 minutes|14 minutes \d+ seconds?) and try again\.$/
    expect(await screen.findByText(wait)).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/otp')
    expect(app.storage.getItem('accessToken')).toBeNull()
  })

  test('links to sign-up and forgot password', async () => {
    await renderApp('/login')
    expect(await screen.findByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/signup')
    expect(screen.getByRole('link', { name: 'Forgot your password?' })).toHaveAttribute('href', '/forgot')
  })
})

describe('the guard', () => {
  test('a visitor is sent to /login?redirect=<path> and returns there after sign-in', async () => {
    const app = await renderApp('/process?tab=2')
    await screen.findByRole('heading', { name: 'Sign in' })
    expect(app.router.location.pathname).toBe('/login')
    expect(app.router.location.search).toBe('?redirect=%2Fprocess%3Ftab%3D2')
    await fillLogin(app, ADA.email, ADA.password)
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('heading', { name: 'Process' })).toBeInTheDocument()
    expect(app.router.location.pathname + app.router.location.search).toBe('/process?tab=2')
  })

  test('a tab holding no tokens is sent to sign in at once, without waiting for the session call', async () => {
    const app = await renderApp('/process', {
      beforeStart: (core) =>
        core.ops.scenarios.arm({ name: 'latency', operation: 'getSession', delay_ms: 1_000 }),
    })
    await screen.findByRole('heading', { name: 'Sign in' })
    expect(app.router.location.pathname + app.router.location.search).toBe('/login?redirect=%2Fprocess')
    expect(app.store.getSnapshot().ready, 'the session call has not answered yet').toBe(false)
  })

  test('a tab holding tokens waits for the session call before the guard decides', async () => {
    const app = await renderApp('/process', {
      stored: { accessToken: 'stored-access', refreshToken: 'stored-refresh' },
      beforeStart: (core) => {
        core.ops.scenarios.arm({ name: 'latency', operation: 'getSession', delay_ms: 300 })
        core.ops.scenarios.arm({ name: 'latency', operation: 'refreshToken', delay_ms: 300 })
      },
    })
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeInTheDocument()
    expect(app.store.getSnapshot()).toMatchObject({ ready: false, hasTokens: true })
    expect(screen.queryByRole('heading', { name: 'Sign in' })).not.toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/process')
    await screen.findByRole('heading', { name: 'Sign in' }) // the session and the refresh said no
    expect(app.store.getSnapshot().ready).toBe(true)
  })

  test('an off-site redirect is ignored', async () => {
    const app = await renderApp('/login?redirect=%2F%2Fevil.example%2F')
    await fillLogin(app, ADA.email, ADA.password)
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })
    expect(app.router.location.pathname).toBe('/')
  })
})
