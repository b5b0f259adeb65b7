import { act, screen, waitFor, within } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { callsOf, useMockServer } from '../../test/app-harness.tsx'
import { createStubApi, renderPage } from '../../test/page-harness.tsx'
import { renderSignedIn, type SignedInApp } from '../../test/signed-in.tsx'
import { ProcessPage } from './process-page.tsx'

useMockServer()

// react-datepicker sizes its time list with a ResizeObserver, which jsdom lacks.
beforeEach(() => {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  )
})
afterEach(() => vi.unstubAllGlobals())

const PROFILE = 'Complete your learner profile'
const COURSE = 'Choose your first course'
const openProcess = () => renderSignedIn('/process', { role: 'heading', name: 'Process' })
const stepItem = (title: string) => screen.getByRole('listitem', { name: title })
const statusOf = (title: string) => screen.getByRole('combobox', { name: `Status of “${title}”` })
const scheduleOf = (title: string) => screen.getByRole('textbox', { name: `Schedule “${title}”` })

/** Leaves the page and comes back: GET /api/process again. */
async function reopen(app: SignedInApp) {
  await act(() => app.router.navigate('/nowhere'))
  await screen.findByRole('heading', { name: 'Page not found' })
  await act(() => app.router.navigate('/process'))
  await screen.findByRole('listitem', { name: PROFILE })
}

describe('the process page', () => {
  test("lists the learner's steps in order, with status and schedule", async () => {
    await openProcess()
    const items = await screen.findAllByRole('listitem')
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Create your account',
      PROFILE,
      COURSE,
      'Schedule your orientation call',
      'Attend the orientation call',
      'Start your first lesson',
    ])
    expect(screen.getByText('1 of 6 steps done.')).toBeInTheDocument()
    expect(statusOf('Create your account')).toHaveValue('done')
    expect(statusOf(PROFILE)).toHaveValue('todo')
    expect(within(stepItem(PROFILE)).getByText('Not scheduled yet.')).toBeInTheDocument()
  })

  test('a status change shows at once, is saved, and is still there after a reload', async () => {
    const app = await openProcess()
    app.core.ops.scenarios.arm({ name: 'latency', operation: 'updateProcessStep', delay_ms: 300 })
    await app.user.selectOptions(
      await screen.findByRole('combobox', { name: `Status of “${PROFILE}”` }),
      'Done',
    )
    expect(statusOf(PROFILE)).toHaveValue('done') // before the answer
    expect(screen.getByText('2 of 6 steps done.')).toBeInTheDocument()
    await waitFor(async () => expect(await callsOf(app.core, 'updateProcessStep')).toHaveLength(1))
    await reopen(app)
    expect(statusOf(PROFILE)).toHaveValue('done')
  })

  test('a refused change is undone, with an error toast', async () => {
    const app = await openProcess()
    app.core.ops.scenarios.arm({ name: 'server-error', operation: 'updateProcessStep', status: 500 })
    await app.user.selectOptions(
      await screen.findByRole('combobox', { name: `Status of “${PROFILE}”` }),
      'In progress',
    )
    expect(
      await screen.findByText(`Could not save “${PROFILE}”. The server had a problem. Please try again.`),
    ).toBeInTheDocument()
    expect(statusOf(PROFILE)).toHaveValue('todo')
    expect(await callsOf(app.core, 'updateProcessStep')).toHaveLength(1) // a PATCH is never re-sent
  })

  test('a 401 that ends the session has only the session toast', async () => {
    const app = await openProcess()
    app.core.ops.scenarios.arm({ name: 'access-token-invalid', operation: 'updateProcessStep' })
    await app.user.selectOptions(
      await screen.findByRole('combobox', { name: `Status of “${PROFILE}”` }),
      'Done',
    )
    expect(await screen.findByText('Invalid authentication. Please login again.')).toBeInTheDocument()
    await waitFor(() => expect(app.router.location.pathname).toBe('/login'))
    expect(screen.queryByText(/Could not save/)).not.toBeInTheDocument()
  })

  test('scheduling by typing a date and time: saved when the picker closes', async () => {
    const app = await openProcess()
    await app.user.click(await screen.findByRole('textbox', { name: `Schedule “${COURSE}”` }))
    expect(screen.getByRole('dialog', { name: 'Choose Date and Time' })).toBeInTheDocument()
    await app.user.type(scheduleOf(COURSE), '2030-05-15 10:30')
    expect(await callsOf(app.core, 'updateProcessStep')).toHaveLength(0) // not at each key
    await app.user.tab()
    const expected = new Date(2030, 4, 15, 10, 30).toISOString()
    await waitFor(() =>
      expect(within(stepItem(COURSE)).getByRole('time')).toHaveAttribute('datetime', expected),
    )
    // The screen may show the new time before the call reaches the server's journal.
    await waitFor(async () => expect(await callsOf(app.core, 'updateProcessStep')).toHaveLength(1))
    await reopen(app)
    expect(within(stepItem(COURSE)).getByRole('time')).toHaveAttribute('datetime', expected)
    expect(scheduleOf(COURSE)).toHaveValue('2030-05-15 10:30')
  })

  test('scheduling with the calendar: a day, then a time in steps of 5 minutes', async () => {
    const app = await openProcess()
    await app.user.click(await screen.findByRole('textbox', { name: `Schedule “${COURSE}”` }))
    const dialog = screen.getByRole('dialog', { name: 'Choose Date and Time' })
    expect(dialog.closest('[data-placement]')).not.toBeNull() // wide screens: a popover beside the field
    const headers = within(dialog)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent)
    expect(headers[0]).toMatch(/^Su/) // the week starts on Sunday
    await app.user.click(within(dialog).getByRole('button', { name: 'Next Month' }))
    await app.user.click(within(dialog).getByRole('gridcell', { name: /15th/ }))
    const times = within(dialog)
      .getAllByRole('option')
      .map((option) => option.textContent)
    expect(times.slice(0, 3)).toEqual(['00:00', '00:05', '00:10'])
    expect(times).toHaveLength(288)
    await app.user.click(within(dialog).getByRole('option', { name: '10:30' }))
    await waitFor(async () => expect(await callsOf(app.core, 'updateProcessStep')).toHaveLength(1))
    const saved = new Date(within(stepItem(COURSE)).getByRole('time').getAttribute('datetime')!)
    expect([saved.getDate(), saved.getHours(), saved.getMinutes()]).toEqual([15, 10, 30])
  })

  test('a schedule can be cleared', async () => {
    const app = await openProcess()
    await app.user.type(
      await screen.findByRole('textbox', { name: `Schedule “${COURSE}”` }),
      '2030-05-15 10:30',
    )
    await app.user.tab()
    await app.user.click(await screen.findByRole('button', { name: `Clear the schedule of “${COURSE}”` }))
    expect(await within(stepItem(COURSE)).findByText('Not scheduled yet.')).toBeInTheDocument()
    await waitFor(async () => expect(await callsOf(app.core, 'updateProcessStep')).toHaveLength(2))
  })

  test('a failing load: the error, and a way to try again', async () => {
    const app = await renderSignedIn('/', { role: 'heading', name: /^Welcome/ })
    app.core.ops.scenarios.arm({ name: 'server-error', operation: 'getProcess', status: 500, times: 2 })
    await act(() => app.router.navigate('/process'))
    expect(await screen.findByRole('alert')).toHaveTextContent('The server had a problem. Please try again.')
    await app.user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('listitem', { name: PROFILE })).toBeInTheDocument()
  })
})

describe('the process page alone', () => {
  test('loading', () => {
    renderPage(<ProcessPage />, { api: createStubApi({}) })
    expect(screen.getByText('Loading your steps…')).toHaveAttribute('aria-busy', 'true')
  })

  test('no steps yet', async () => {
    renderPage(<ProcessPage />, { api: createStubApi({ '/api/process': { steps: [] } }) })
    expect(await screen.findByText(/You have no steps yet/)).toBeInTheDocument()
  })

  test('the mobile layout at widths up to 600 px: a full-screen overlay', async () => {
    const matchMedia = window.matchMedia
    window.matchMedia = (query: string) => ({ ...matchMedia(query), matches: query === '(max-width: 600px)' })
    try {
      const step = { id: 's1', title: 'Pick a date', status: 'todo', scheduled_at: null }
      const view = renderPage(<ProcessPage />, { api: createStubApi({ '/api/process': { steps: [step] } }) })
      const field = await screen.findByRole('textbox', { name: 'Schedule “Pick a date”' })
      act(() => field.click())
      const dialog = screen.getByRole('dialog', { name: 'Choose Date and Time' })
      expect(dialog.closest('[data-placement]')).toBeNull() // not a popover beside the field
      view.unmount()
    } finally {
      window.matchMedia = matchMedia
    }
  })
})
