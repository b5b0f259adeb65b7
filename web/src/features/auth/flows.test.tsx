import { screen, waitFor } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { ADA, browserFetch, callsOf, ORIGIN, renderApp, useMockServer } from '../../test/app-harness.tsx'
import { renderSignedIn } from '../../test/signed-in.tsx'

useMockServer()

describe('sign-up -> /new/otp -> signed in -> /', () => {
  test('creates the account, verifies the mailed code and greets the new user', async () => {
    const app = await renderApp('/signup')
    await app.user.type(await screen.findByLabelText('Name'), 'Katherine Johnson')
    await app.user.type(screen.getByLabelText('E-mail'), 'katherine@example.com')
    await app.user.type(screen.getByLabelText('Password'), 'orbital-mechanics-1962')
    await app.user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByRole('heading', { name: 'Verify your e-mail address' })).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/new/otp')
    const code = screen.getByLabelText('6-digit code')
    expect(code).toHaveAttribute('autocomplete', 'one-time-code')
    expect(code).toHaveAttribute('inputmode', 'numeric')
    expect(screen.getByRole('button', { name: /^Resend code in \d+ s$/ })).toBeDisabled()
    await app.user.click(code)
    await app.user.paste(`Your code: ${await app.mock.latestCode('katherine@example.com', 'signup')}`)
    expect(code).toHaveValue(await app.mock.latestCode('katherine@example.com', 'signup'))
    await app.user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByRole('heading', { name: 'Welcome, Katherine Johnson' })).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/')
  })

  test('checks the fields against the server rules before calling', async () => {
    const app = await renderApp('/signup')
    await app.user.type(await screen.findByLabelText('E-mail'), 'not-an-address')
    await app.user.type(screen.getByLabelText('Password'), 'short')
    await app.user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Enter your name.')
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter a valid e-mail address.')
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      'At least 8 characters. Use at least 8 characters.',
    )
    expect(await callsOf(app.core, 'signup')).toHaveLength(0)
  })

  test("the server's refusal of a common password shows inline", async () => {
    const app = await renderApp('/signup')
    await app.user.type(await screen.findByLabelText('Name'), 'Pat')
    await app.user.type(screen.getByLabelText('E-mail'), 'pat@example.com')
    await app.user.type(screen.getByLabelText('Password'), 'password123')
    await app.user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true'))
    expect(await callsOf(app.core, 'signup')).toHaveLength(1)
    expect(app.router.location.pathname).toBe('/signup')
  })

  test('the resend button counts down, then sends a new code', async () => {
    const app = await renderApp('/signup', { mock: { codeCooldownMs: 1_000 } })
    await app.user.type(await screen.findByLabelText('Name'), 'Ray')
    await app.user.type(screen.getByLabelText('E-mail'), 'ray@example.com')
    await app.user.type(screen.getByLabelText('Password'), 'orbital-mechanics-1962')
    await app.user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByRole('button', { name: 'Resend code in 1 s' })).toBeDisabled()
    const resend = await screen.findByRole('button', { name: 'Resend code' })
    const first = await app.mock.latestCode('ray@example.com', 'signup')
    await app.user.click(resend)
    expect(await screen.findByRole('status')).toHaveTextContent('We sent a new code to ray@example.com.')
    expect((await app.core.ops.mailbox.list('ray@example.com')).filter((m) => m.code)).toHaveLength(2)
    await app.user.type(
      screen.getByLabelText('6-digit code'),
      await app.mock.latestCode('ray@example.com', 'signup'),
    )
    await app.user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByRole('heading', { name: 'Welcome, Ray' })).toBeInTheDocument()
    expect(first).toMatch(/^\d{6}$/)
  })

  /** Signs up as Kay and enters a wrong code on the code screen. */
  async function enterWrongCode(app: Awaited<ReturnType<typeof renderApp>>) {
    await app.user.type(await screen.findByLabelText('Name'), 'Kay')
    await app.user.type(screen.getByLabelText('E-mail'), 'kay@example.com')
    await app.user.type(screen.getByLabelText('Password'), 'orbital-mechanics-1962')
    await app.user.click(screen.getByRole('button', { name: 'Create account' }))
    // The code screen shows once the sign-up answered, and so once the code was mailed.
    const codeField = await screen.findByLabelText('6-digit code')
    const wrong = (await app.mock.latestCode('kay@example.com', 'signup')) === '000000' ? '111111' : '000000'
    await app.user.type(codeField, wrong)
    await app.user.click(screen.getByRole('button', { name: 'Verify' }))
  }

  test('a wrong code says so, with the attempts left', async () => {
    await enterWrongCode(await renderApp('/signup'))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^That code is not right, or it has expired\. \d attempts? left\.$/,
    )
  })

  test('past the ceiling of wrong codes for the address, it shows the wait', async () => {
    await enterWrongCode(
      await renderApp('/signup', { mock: { codeGuessLimit: { max: 1, windowMs: 3_600_000 } } }),
    )
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Too many attempts\. Please wait (60|59) minutes?( \d+ seconds?)? and try again\.$/,
    )
  })
})

describe('forgot -> /otp (reset) -> /update_password -> /login', () => {
  test('recovers the password and signs in with the new one', async () => {
    const app = await renderApp('/forgot')
    await app.user.type(await screen.findByLabelText('E-mail'), ADA.email)
    await app.user.click(screen.getByRole('button', { name: 'Send me a code' }))
    expect(await screen.findByRole('heading', { name: 'Enter your reset code' })).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/otp')
    await app.user.type(screen.getByLabelText('6-digit code'), await app.mock.latestCode(ADA.email, 'reset'))
    await app.user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByRole('heading', { name: 'Set a new password' })).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/update_password')
    await app.user.type(screen.getByLabelText('New password'), 'a-brand-new-passphrase')
    await app.user.type(screen.getByLabelText('Repeat the new password'), 'a-brand-new-passphrase!')
    await app.user.click(screen.getByRole('button', { name: 'Save password' }))
    expect(screen.getByLabelText('Repeat the new password')).toHaveAccessibleDescription(
      'The passwords do not match.',
    )
    await app.user.type(screen.getByLabelText('New password'), '!')
    await app.user.click(screen.getByRole('button', { name: 'Save password' }))
    expect(
      await screen.findByText('Your password has been changed. Please sign in with it.'),
    ).toBeInTheDocument()
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/login')
    expect(app.storage.getItem('authFlow')).toBeNull()
    await app.user.clear(screen.getByLabelText('E-mail'))
    await app.user.type(screen.getByLabelText('E-mail'), ADA.email)
    await app.user.type(screen.getByLabelText('Password'), 'a-brand-new-passphrase!')
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })).toBeInTheDocument()
  })

  test('/update_password without a reset under way explains and links back', async () => {
    await renderApp('/update_password')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This password reset has expired or was not started here.',
    )
    expect(screen.getByRole('link', { name: 'Start a password reset' })).toHaveAttribute('href', '/forgot')
  })
})

describe('/update_password for a signed-in user whose session ends there', () => {
  const NOT_STARTED = 'This password reset has expired or was not started here.'

  /** Every node ever added under <body> while `run` goes on, removed or not, so a passing flash is caught too. */
  async function textsShownDuring(run: () => Promise<void>): Promise<string> {
    const added: Node[] = []
    const observer = new MutationObserver((records) => records.forEach((r) => added.push(...r.addedNodes)))
    observer.observe(document.body, { childList: true, subtree: true, characterData: true })
    try {
      await run()
    } finally {
      added.push(...observer.takeRecords().flatMap((r) => [...r.addedNodes]))
      observer.disconnect()
    }
    return added.map((node) => node.textContent ?? '').join('\n')
  }

  async function signedInOnUpdatePassword() {
    const app = await renderSignedIn('/update_password', { role: 'heading', name: 'Set a new password' })
    expect(await screen.findByLabelText('Current password')).toBeInTheDocument()
    return app
  }

  test('it says nothing about a reset until the session call has answered', async () => {
    let sessionCallsWhenShown: number | null = null
    let shown = false
    const observer = new MutationObserver(() => {
      if (!shown && document.body.textContent?.includes(NOT_STARTED)) {
        shown = true
        // The memory journal's list is read when called: this is the count at the moment the text appeared.
        void callsOf(app.core, 'getSession').then((calls) => (sessionCallsWhenShown = calls.length))
      }
    })
    observer.observe(document.body, { childList: true, subtree: true })
    const app = await renderApp('/update_password', {
      beforeStart: (core) =>
        core.ops.scenarios.arm({ name: 'latency', operation: 'getSession', delay_ms: 1_000 }),
    })
    expect(await screen.findByRole('alert')).toHaveTextContent(NOT_STARTED)
    observer.disconnect()
    expect(sessionCallsWhenShown, 'shown only once the session was known').toBe(1)
  })

  test('a forced sign-out: the catalogue toast alone, then /login', async () => {
    const app = await signedInOnUpdatePassword()
    app.core.ops.scenarios.arm({ name: 'unauthorized-other', email: ADA.email, message: 'Suspended.' })
    const shown = await textsShownDuring(async () => {
      await app.user.type(screen.getByLabelText('Current password'), ADA.password)
      await app.user.type(screen.getByLabelText('New password'), 'a-brand-new-passphrase!')
      await app.user.type(screen.getByLabelText('Repeat the new password'), 'a-brand-new-passphrase!')
      await app.user.click(screen.getByRole('button', { name: 'Save password' }))
      expect(await screen.findByText('Suspended.')).toBeInTheDocument()
      await waitFor(() => expect(app.router.location.pathname).toBe('/login'))
    })
    expect(shown).not.toContain(NOT_STARTED)
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual(['Suspended.'])
  })
})

describe('external sign-in', () => {
  // openid-client checks `instanceof ArrayBuffer`, which fails under jsdom against Node's WebCrypto.
  // So the test lends the global Node's own ArrayBuffer.
  const jsdomArrayBuffer = globalThis.ArrayBuffer
  beforeAll(async () => {
    globalThis.ArrayBuffer = (await crypto.subtle.digest('SHA-256', new Uint8Array(1)))
      .constructor as ArrayBufferConstructor
  })
  afterAll(() => {
    globalThis.ArrayBuffer = jsdomArrayBuffer
  })

  test('hidden when the runtime config says the server has no identity provider (production mode)', async () => {
    await renderApp('/login', { config: { externalSignIn: false }, mock: { production: true } })
    expect(await screen.findByRole('button', { name: 'E-mail me a code' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Continue with single sign-on' })).toBeNull()
    const unavailable = await fetch(`${ORIGIN}/api/auth/external/authorize?state=state-0123456789abcdef`)
    expect([unavailable.status, (await unavailable.json()).error]).toEqual([
      404,
      'external_sign_in_unavailable',
    ])
  })

  async function startSingleSignOn() {
    const app = await renderApp('/login?redirect=%2Fhelp')
    await app.user.click(await screen.findByRole('button', { name: 'Continue with single sign-on' }))
    return app
  }

  test('keeps a state, goes to the authorize call, and the callback signs in', async () => {
    const app = await startSingleSignOn()
    expect(app.assigned).toEqual([
      '/api/auth/external/authorize?state=state-0123456789abcdef&redirect_uri=%2Fcallback',
    ])
    expect(JSON.parse(app.storage.getItem('ssoState') ?? 'null')).toEqual({
      state: 'state-0123456789abcdef',
      redirect: '/help',
    })
    // What the browser would do: the authorize redirect (which sets the sign-in's binding cookie), the provider's
    // form, its redirect back.
    const authorize = await browserFetch(`${ORIGIN}${app.assigned[0]}`, { redirect: 'manual' })
    const idp = new URL(authorize.headers.get('location') ?? '', ORIGIN)
    expect(idp.pathname).toBe('/idp/authorize')
    const page = await (await browserFetch(idp.href)).text()
    const request = /name="request" value="([^"]+)"/.exec(page)?.[1] ?? ''
    const back = await browserFetch(`${ORIGIN}${idp.pathname}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ request, email: ADA.email, name: ADA.name }),
      redirect: 'manual',
    })
    const callback = new URL(back.headers.get('location') ?? '', ORIGIN)
    expect(callback.pathname).toBe('/callback')
    await app.router.navigate(callback.pathname + callback.search)
    expect(await screen.findByRole('heading', { name: 'Help' })).toBeInTheDocument()
    expect(app.router.location.pathname).toBe('/help')
    expect(app.storage.getItem('ssoState')).toBeNull()
    expect(app.storage.getItem('accessToken')).toMatch(/\S+/)
  })

  test('a state that does not match shows a clear message and a way back, and calls nothing', async () => {
    const app = await startSingleSignOn()
    await app.router.navigate('/callback?code=abc&state=someone-elses-state')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This sign-in did not start in this browser tab, or it has already been used. Please start again.',
    )
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login')
    expect(await callsOf(app.core, 'exchangeCallback')).toHaveLength(0)
  })

  test('a code the server refuses shows its message', async () => {
    const app = await startSingleSignOn()
    await app.router.navigate('/callback?code=unknown&state=state-0123456789abcdef')
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The single sign-on could not be completed. Please try again.',
    )
    expect(await callsOf(app.core, 'exchangeCallback')).toHaveLength(1)
  })
})

describe('/logout', () => {
  test('ends the server session, clears tokens, stops the timer and goes to /login', async () => {
    const app = await renderApp('/login')
    await app.user.type(await screen.findByLabelText('E-mail'), ADA.email)
    await app.user.type(screen.getByLabelText('Password'), ADA.password)
    await app.user.click(screen.getByRole('button', { name: 'Sign in' }))
    await screen.findByRole('heading', { name: 'Welcome, Ada Lovelace' })
    expect(app.store.getSnapshot().timerRunning).toBe(true)
    await app.user.click(screen.getByRole('link', { name: 'Log out' }))
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument()
    await waitFor(() => expect(app.router.location.pathname).toBe('/login'))
    expect(await callsOf(app.core, 'deleteSession')).toHaveLength(1)
    expect(app.storage.getItem('accessToken')).toBeNull()
    expect(app.storage.getItem('refreshToken')).toBeNull()
    expect(app.storage.getItem('serviceToken')).toBeNull()
    expect(app.store.getSnapshot()).toMatchObject({ isLoggedIn: false, timerRunning: false })
  })
})
