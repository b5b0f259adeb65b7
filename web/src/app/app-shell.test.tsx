import { render, screen, waitFor } from '@testing-library/react'
import { MemoryRouter } from 'react-router-dom'
import { describe, expect, test } from 'vitest'
import { createErrorReporter } from '../lib/monitoring/error-queue.ts'
import { ServicesProvider, type Services } from '../lib/services/services.ts'
import { renderApp, useMockServer } from '../test/app-harness.tsx'
import { expectConsoleError } from '../test/console-errors.ts'
import { ErrorPage } from './error-page.tsx'
import { RouteErrorBoundary } from './route-error-boundary.tsx'

useMockServer()

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36'
const noindex = () => document.head.querySelector('meta[name="robots"]')?.getAttribute('content')

describe('error page (docs/behaviour.md: Routes, Messages)', () => {
  test('an unmatched path: 404 title and message with the path, not indexed', async () => {
    await renderApp('/no/such/page')
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
    expect(screen.getByText('Page Not Found: /no/such/page')).toBeInTheDocument()
    expect(document.title).toBe('Page not found · Auth shell')
    expect(noindex()).toBe('noindex')
  })

  test('a crawler gets the bare status text and noindex', async () => {
    await renderApp('/no/such/page', { userAgent: GOOGLEBOT })
    expect(await screen.findByText('404 Not Found')).toBeInTheDocument()
    expect(screen.queryByRole('heading', { name: 'Page not found' })).not.toBeInTheDocument()
    expect(noindex()).toBe('noindex')
  })

  const thrown = [
    { name: 'a render error', userAgent: BROWSER, text: 'Internal Server Error', heading: true },
    {
      name: 'a render error, seen by a crawler',
      userAgent: GOOGLEBOT,
      text: '500 Internal Server Error',
      heading: false,
    },
  ] as const

  test.each(thrown)('$name: the generic server-error page', async ({ userAgent, text, heading }) => {
    expectConsoleError(/Boom|The above error occurred/)
    const boom = new Error('Boom')
    function Broken(): never {
      throw boom
    }
    const errors = createErrorReporter()
    const reported: unknown[] = []
    errors.attach((error) => reported.push(error))
    render(
      <ServicesProvider services={{ userAgent, errors } as Services}>
        <MemoryRouter>
          <RouteErrorBoundary fallback={(error) => <ErrorPage error={error} />}>
            <Broken />
          </RouteErrorBoundary>
        </MemoryRouter>
      </ServicesProvider>,
    )
    expect(await screen.findByText(text)).toBeInTheDocument()
    expect(screen.queryAllByRole('heading', { name: 'Internal Server Error' })).toHaveLength(heading ? 1 : 0)
    expect(document.title).toBe('Internal Server Error · Auth shell')
    expect(noindex()).toBe('noindex')
    expect(reported).toEqual([boom]) // docs/behaviour.md: Constants: the error page's errors are reported
  })

  test('a 404 is not reported', async () => {
    const app = await renderApp('/no/such/page')
    const reported: unknown[] = []
    app.services.errors.attach((error) => reported.push(error))
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument()
    expect(reported).toEqual([])
  })
})

describe('document titles', () => {
  const pages = [
    { path: '/login', title: 'Sign in · Auth shell' },
    { path: '/signup', title: 'Create an account · Auth shell' },
    { path: '/otp', title: 'Enter your sign-in code · Auth shell' },
    { path: '/new/otp', title: 'Verify your e-mail address · Auth shell' },
    { path: '/forgot', title: 'Forgot password · Auth shell' },
    { path: '/update_password', title: 'Set a new password · Auth shell' },
    { path: '/callback', title: 'Signing in · Auth shell' },
  ] as const

  test.each(pages)('$path -> "$title"', async ({ path, title }) => {
    await renderApp(path)
    await waitFor(() => expect(document.title).toBe(title))
  })
})

describe('layout', () => {
  test('the loading bar shows until the session is ready', async () => {
    await renderApp('/login', {
      beforeStart: (core) =>
        core.ops.scenarios.arm({ name: 'latency', operation: 'getSession', delay_ms: 200 }),
    })
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument())
  })

  test('the loading bar shows while a call is in flight', async () => {
    const app = await renderApp('/forgot')
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument())
    app.core.ops.scenarios.arm({ name: 'latency', operation: 'forgotPassword', delay_ms: 200 })
    await app.user.type(await screen.findByLabelText('E-mail'), 'ada@example.com')
    await app.user.click(screen.getByRole('button', { name: 'Send me a code' }))
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeInTheDocument()
    await screen.findByRole('heading', { name: 'Enter your reset code' })
    await waitFor(() => expect(screen.queryByRole('progressbar')).not.toBeInTheDocument())
  })

  test('the toast area is there (its chunk comes after the first paint)', async () => {
    const { container } = await renderApp('/login')
    await waitFor(() => expect(container.querySelector('[data-rht-toaster]')).not.toBeNull())
  })
})
