import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test, vi } from 'vitest'
import { ADA, renderApp, useMockServer } from '../../test/app-harness.tsx'
import { expectConsoleError } from '../../test/console-errors.ts'
import { renderSignedIn } from '../../test/signed-in.tsx'
import { QA_TEST_ERROR } from './qa-panel.tsx'

useMockServer()

const MOCK = { config: { mock: true } }
const openHome = () => renderSignedIn('/', { role: 'heading', name: 'Welcome, Ada Lovelace' }, MOCK)

async function openPanel(app: Awaited<ReturnType<typeof openHome>>) {
  const toggle = await screen.findByRole('button', { name: 'QA panel' })
  expect(toggle).toHaveAttribute('aria-expanded', 'false')
  expect(screen.queryByRole('region', { name: 'QA panel' })).not.toBeInTheDocument()
  await app.user.click(toggle)
  expect(toggle).toHaveAttribute('aria-expanded', 'true')
  const panel = screen.getByRole('region', { name: 'QA panel' })
  await within(panel).findByRole('option', { name: 'access-token-expired' })
  return panel
}

describe('the QA panel', () => {
  test('absent when the app is not served by the mock server', async () => {
    await renderSignedIn('/', { role: 'heading', name: 'Welcome, Ada Lovelace' })
    expect(screen.queryByRole('button', { name: 'QA panel' })).not.toBeInTheDocument()
  })

  test('closed by default; opens from its button and closes with Escape, focus back on the button', async () => {
    const app = await openHome()
    await openPanel(app)
    await app.user.keyboard('{Escape}')
    expect(screen.queryByRole('region', { name: 'QA panel' })).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'QA panel' })).toHaveFocus()
  })

  test('by keyboard: Enter on the focused button opens it', async () => {
    const app = await openHome()
    const toggle = await screen.findByRole('button', { name: 'QA panel' })
    toggle.focus()
    await app.user.keyboard('{Enter}')
    expect(await screen.findByRole('region', { name: 'QA panel' })).toBeInTheDocument()
  })

  test('arms a scenario for the signed-in account', async () => {
    const app = await openHome()
    const panel = await openPanel(app)
    await app.user.selectOptions(within(panel).getByRole('combobox', { name: 'Scenario' }), 'latency')
    expect(within(panel).getByText(/^Any call is answered .delay_ms. /)).toBeInTheDocument() // what it does
    await app.user.click(within(panel).getByRole('button', { name: 'Arm for my account' }))
    expect(await within(panel).findByText(`Armed latency for ${ADA.email}.`)).toBeInTheDocument()
    expect(await app.core.ops.scenarios.list()).toEqual([
      expect.objectContaining({ name: 'latency', email: ADA.email, remaining: 1 }),
    ])
  })

  test('advances the server clock', async () => {
    const app = await openHome()
    const panel = await openPanel(app)
    const minutes = within(panel).getByRole('spinbutton', { name: 'Minutes to advance' })
    await app.user.clear(minutes)
    await app.user.type(minutes, '30')
    await app.user.click(within(panel).getByRole('button', { name: 'Advance the server clock' }))
    expect(await within(panel).findByText(/^Server time: .* \(30 min ahead\)\.$/)).toBeInTheDocument()
    expect(app.core.clock.offsetMs()).toBe(30 * 60_000)
  })

  test("shows the account's last calls from the journal", async () => {
    const app = await openHome()
    const panel = await openPanel(app)
    const calls = await within(panel).findByRole('list', { name: 'Last calls' })
    expect(within(calls).getByText('GET /api/me → 200 (getMe)')).toBeInTheDocument()
  })

  test('links to the API reference, in a new tab', async () => {
    const app = await openHome()
    const panel = await openPanel(app)
    const link = within(panel).getByRole('link', { name: 'API reference (opens in a new tab)' })
    expect(link).toHaveAttribute('href', '/__mock/docs')
    expect(link).toHaveAttribute('target', '_blank')
  })

  test('signed out: nothing to arm for', async () => {
    const app = await renderApp('/login', MOCK)
    await app.user.click(await screen.findByRole('button', { name: 'QA panel' }))
    const panel = screen.getByRole('region', { name: 'QA panel' })
    await within(panel).findByRole('option', { name: 'latency' })
    expect(within(panel).getByRole('button', { name: 'Arm for my account' })).toBeDisabled()
    expect(within(panel).getByText('Sign in to arm a scenario for your account.')).toBeInTheDocument()
  })

  test('signed out: shows the mail sent to a typed address, newest first, with its code', async () => {
    const app = await renderApp('/signup', MOCK)
    const email = 'qa-mailbox@example.test'
    await app.user.type(await screen.findByLabelText('Name', { exact: true }), 'Qa Mailbox')
    await app.user.type(screen.getByLabelText('E-mail', { exact: true }), email)
    await app.user.type(screen.getByLabelText('Password', { exact: true }), 'a long enough passphrase')
    await app.user.click(screen.getByRole('button', { name: 'Create account' }))
    await screen.findByRole('heading', { name: 'Verify your e-mail address' })
    const code = (await app.core.ops.mailbox.list(email))[0]?.code
    expect(code).toMatch(/^\d{6}$/)

    await app.user.click(await screen.findByRole('button', { name: 'QA panel' }))
    const panel = screen.getByRole('region', { name: 'QA panel' })
    expect(within(panel).getByRole('button', { name: 'Show the mail' })).toBeDisabled()
    await app.user.type(within(panel).getByRole('textbox', { name: 'Address' }), email)
    await app.user.click(within(panel).getByRole('button', { name: 'Show the mail' }))
    const mailbox = await within(panel).findByRole('list', { name: 'Mailbox' })
    expect(
      within(mailbox)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([`signup: ${code} (${email})`])

    await app.user.clear(within(panel).getByRole('textbox', { name: 'Address' }))
    await app.user.type(within(panel).getByRole('textbox', { name: 'Address' }), 'nobody@example.test')
    await app.user.click(within(panel).getByRole('button', { name: 'Show the mail' }))
    expect(await within(panel).findByText('No mail for this address.')).toBeInTheDocument()
  })

  test('a test error: the error page, and the error reported', async () => {
    expectConsoleError(new RegExp(`${QA_TEST_ERROR}|The above error occurred|React Router caught`))
    const app = await openHome()
    const reported = vi.fn()
    app.services.errors.attach(reported)
    const panel = await openPanel(app)
    await app.user.click(within(panel).getByRole('button', { name: 'Throw a test error' }))
    expect(await screen.findByRole('heading', { name: 'Internal Server Error' })).toBeInTheDocument()
    await waitFor(() =>
      expect(reported).toHaveBeenCalledWith(expect.objectContaining({ message: QA_TEST_ERROR })),
    )
  })
})

describe('the QA panel against a mock server with a control token', () => {
  test('asks for the token, then sends it with every call', async () => {
    const app = await renderSignedIn(
      '/',
      { role: 'heading', name: 'Welcome, Ada Lovelace' },
      {
        ...MOCK,
        mock: { controlToken: 'qa-control-token' },
      },
    )
    await app.user.click(await screen.findByRole('button', { name: 'QA panel' }))
    const panel = screen.getByRole('region', { name: 'QA panel' })
    const form = await within(panel).findByRole('form', { name: 'Control token' })
    expect(within(panel).queryByRole('option', { name: 'access-token-expired' })).not.toBeInTheDocument()
    // The reference needs no token: its link is there before one is typed.
    expect(within(panel).getByRole('link', { name: 'API reference (opens in a new tab)' })).toBeVisible()
    await app.user.type(within(form).getByLabelText('Control token'), 'qa-control-token')
    await app.user.click(within(form).getByRole('button', { name: 'Use the token' }))
    await within(panel).findByRole('option', { name: 'access-token-expired' })
    expect(within(panel).queryByRole('form', { name: 'Control token' })).not.toBeInTheDocument()
    await app.user.selectOptions(within(panel).getByRole('combobox', { name: 'Scenario' }), 'latency')
    await app.user.click(within(panel).getByRole('button', { name: 'Arm for my account' }))
    expect(await within(panel).findByText(`Armed latency for ${ADA.email}.`)).toBeInTheDocument()
    expect(await app.core.ops.scenarios.list()).toEqual([
      expect.objectContaining({ name: 'latency', email: ADA.email }),
    ])
  })
})
