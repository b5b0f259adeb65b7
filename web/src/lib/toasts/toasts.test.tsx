import { act, fireEvent, render, screen } from '@testing-library/react'
import { toast } from 'react-hot-toast'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { DEFAULT_RUNTIME_CONFIG } from '../config/runtime-config.ts'
import { ServicesProvider, type Services } from '../services/services.ts'
import { createToasts } from './toasts.ts'
import { AppToaster } from './toaster.tsx'

// The toast area is in from the start: these tests render the toaster themselves.
const { show: showToast, showPromise: showPromiseToast } = createToasts({
  area: { toast, Toaster: AppToaster },
})

beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(() => {
  act(() => toast.remove())
  vi.useRealTimers()
})

const advance = (ms: number) => act(() => vi.advanceTimersByTime(ms))
/** On screen: in the document and not hidden (a dismissed toast is aria-hidden while it fades out). */
const isShown = (text: string) => {
  const element = screen.queryByText(text)
  return element !== null && element.closest('[aria-hidden="true"]') === null
}

const kinds = [
  { kind: 'success', role: 'status', icon: null },
  { kind: 'error', role: 'alert', icon: null },
  { kind: 'warning', role: 'status', icon: '⚠️' },
  { kind: 'info', role: 'status', icon: 'ℹ️' },
] as const

describe('toasts (docs/behaviour.md: Messages, Constants), first reading (the default)', () => {
  beforeEach(() => void render(<AppToaster />))

  test.each(kinds)('$kind: shown top-center for 6000 ms', ({ kind, role, icon }) => {
    act(() => void showToast({ kind, message: `A ${kind} message` }))
    const message = screen.getByText(`A ${kind} message`)
    expect(message).toHaveAttribute('role', role)
    if (icon) expect(screen.getByText(icon)).toBeInTheDocument()
    const wrapper = message.closest('div[style*="justify-content: center"]')
    expect(wrapper).not.toBeNull()
    expect(wrapper?.getAttribute('style')).toContain('top: 0')
    advance(5_999)
    expect(isShown(`A ${kind} message`)).toBe(true)
    advance(1)
    expect(isShown(`A ${kind} message`)).toBe(false)
    advance(1_000) // then removed after react-hot-toast's exit delay
    expect(screen.queryByText(`A ${kind} message`)).not.toBeInTheDocument()
  })

  test('no limit of four: five toasts show together', () => {
    act(() => {
      for (let i = 1; i <= 5; i++) showToast({ kind: 'info', message: `Toast ${i}` })
    })
    for (let i = 1; i <= 5; i++) expect(isShown(`Toast ${i}`)).toBe(true)
  })

  test('pauses while hovered', () => {
    act(() => void showToast({ kind: 'error', message: 'Hover me' }))
    advance(1_000)
    fireEvent.mouseEnter(screen.getByText('Hover me'))
    advance(30_000)
    expect(isShown('Hover me')).toBe(true)
    fireEvent.mouseLeave(screen.getByText('Hover me'))
    advance(4_999)
    expect(isShown('Hover me')).toBe(true)
    advance(1)
    expect(isShown('Hover me')).toBe(false)
  })

  test('pauses while touched, resuming 2000 ms after the touch ends', () => {
    act(() => void showToast({ kind: 'success', message: 'Touch me' }))
    advance(1_000)
    fireEvent.touchStart(screen.getByText('Touch me'))
    advance(30_000)
    fireEvent.touchEnd(screen.getByText('Touch me'))
    advance(2_000 + 4_999)
    expect(isShown('Touch me')).toBe(true)
    advance(1)
    expect(isShown('Touch me')).toBe(false)
  })

  test('a promise toast has no time-out while pending; its outcome lasts 6000 ms', async () => {
    let resolve!: (value: string) => void
    const pending = new Promise<string>((r) => (resolve = r))
    act(
      () => void showPromiseToast(pending, { loading: 'Saving…', success: 'Saved', error: 'Could not save' }),
    )
    advance(120_000)
    expect(isShown('Saving…')).toBe(true)
    await act(async () => resolve('done'))
    expect(isShown('Saved')).toBe(true)
    advance(5_999)
    expect(isShown('Saved')).toBe(true)
    advance(1)
    expect(isShown('Saved')).toBe(false)
  })
})

const corner = (text: string) =>
  screen.getByText(text).closest('div[style*="justify-content"]')?.getAttribute('style') ?? ''
const showMany = (from: number, to: number) => {
  const ids: string[] = []
  act(() => {
    for (let i = from; i <= to; i++) ids.push(showToast({ kind: 'info', message: `Toast ${i}` }))
  })
  return ids
}
const shownOf = (count: number) =>
  Array.from({ length: count }, (_, i) => `Toast ${i + 1}`).filter((text) => isShown(text))

describe("toasts, second reading (runtime option toasts: 'top-right-queue')", () => {
  beforeEach(() => void render(<AppToaster mode="top-right-queue" />))

  test('top-right, at most 4 shown; the rest wait in order and are not announced', () => {
    showMany(1, 6)
    expect(shownOf(6)).toEqual(['Toast 1', 'Toast 2', 'Toast 3', 'Toast 4'])
    expect(screen.queryByText('Toast 5')).not.toBeInTheDocument()
    expect(corner('Toast 1')).toContain('justify-content: flex-end')
    expect(corner('Toast 1')).toContain('top: 0')
    expect(screen.getAllByRole('status')).toHaveLength(4)
  })

  test('each lasts 5000 ms from when it is shown; a queued toast does not time out while it waits', () => {
    showMany(1, 6)
    advance(4_999)
    expect(shownOf(6)).toEqual(['Toast 1', 'Toast 2', 'Toast 3', 'Toast 4'])
    advance(1)
    expect(shownOf(6)).toEqual(['Toast 5', 'Toast 6'])
    advance(4_999)
    expect(shownOf(6)).toEqual(['Toast 5', 'Toast 6'])
    advance(1)
    expect(shownOf(6)).toEqual([])
  })

  test('a dismissed toast frees its place at once for the next in the queue', () => {
    const ids = showMany(1, 5)
    advance(2_000)
    act(() => toast.dismiss(ids[1]))
    expect(shownOf(5)).toEqual(['Toast 1', 'Toast 3', 'Toast 4', 'Toast 5'])
    advance(2_999) // the first four go 5000 ms after they were shown
    expect(shownOf(5)).toEqual(['Toast 1', 'Toast 3', 'Toast 4', 'Toast 5'])
    advance(1)
    expect(shownOf(5)).toEqual(['Toast 5'])
    advance(1_999) // the fifth was shown 3000 ms ago
    expect(shownOf(5)).toEqual(['Toast 5'])
    advance(1)
    expect(shownOf(5)).toEqual([])
  })

  test('raised at different times: the fifth is shown when the first goes, for its own 5000 ms', () => {
    showMany(1, 1)
    advance(1_000)
    showMany(2, 5)
    advance(3_999) // t = 4999
    expect(shownOf(5)).toEqual(['Toast 1', 'Toast 2', 'Toast 3', 'Toast 4'])
    advance(1) // t = 5000: the first goes, the fifth comes
    expect(shownOf(5)).toEqual(['Toast 2', 'Toast 3', 'Toast 4', 'Toast 5'])
    advance(1_000) // t = 6000: the second to fourth go
    expect(shownOf(5)).toEqual(['Toast 5'])
    advance(3_999)
    expect(shownOf(5)).toEqual(['Toast 5'])
    advance(1)
    expect(shownOf(5)).toEqual([])
  })

  test('an error toast keeps the alert role; a pending promise toast holds its place without time-out', async () => {
    let resolve!: (value: string) => void
    act(() => {
      void showPromiseToast(new Promise<string>((r) => (resolve = r)), {
        loading: 'Saving…',
        success: 'Saved',
        error: 'Could not save',
      })
      showToast({ kind: 'error', message: 'It failed' })
    })
    expect(screen.getByText('It failed')).toHaveAttribute('role', 'alert')
    advance(60_000)
    expect(isShown('Saving…')).toBe(true)
    expect(isShown('It failed')).toBe(false)
    await act(async () => resolve('done'))
    expect(isShown('Saved')).toBe(true)
    advance(4_999)
    expect(isShown('Saved')).toBe(true)
    advance(1)
    expect(isShown('Saved')).toBe(false)
  })

  test('pauses while hovered', () => {
    showMany(1, 1)
    advance(1_000)
    fireEvent.mouseEnter(screen.getByText('Toast 1'))
    advance(30_000)
    expect(isShown('Toast 1')).toBe(true)
    fireEvent.mouseLeave(screen.getByText('Toast 1'))
    advance(3_999)
    expect(isShown('Toast 1')).toBe(true)
    advance(1)
    expect(isShown('Toast 1')).toBe(false)
  })
})

describe('the reading comes from the runtime configuration', () => {
  test("toasts: 'top-right-queue' in config.json gives the second reading", () => {
    const services = { config: { ...DEFAULT_RUNTIME_CONFIG, toasts: 'top-right-queue' } } as Services
    render(
      <ServicesProvider services={services}>
        <AppToaster />
      </ServicesProvider>,
    )
    showMany(1, 5)
    expect(shownOf(5)).toHaveLength(4)
    expect(corner('Toast 1')).toContain('justify-content: flex-end')
  })

  test('without it, the first reading', () => {
    render(
      <ServicesProvider services={{ config: DEFAULT_RUNTIME_CONFIG } as Services}>
        <AppToaster />
      </ServicesProvider>,
    )
    showMany(1, 5)
    expect(shownOf(5)).toHaveLength(5)
    expect(corner('Toast 1')).toContain('justify-content: center')
  })
})

describe('a toast with an action', () => {
  beforeEach(() => void render(<AppToaster />))

  test('its button dismisses the toast and runs the action; a persistent one has no time-out', async () => {
    const onAction = vi.fn()
    act(
      () =>
        void showToast({
          kind: 'info',
          message: 'A new version is available.',
          action: { label: 'Reload', onAction },
          persistent: true,
        }),
    )
    advance(600_000)
    expect(isShown('A new version is available.')).toBe(true)
    act(() => screen.getByRole('button', { name: 'Reload' }).click())
    expect(onAction).toHaveBeenCalledOnce()
    expect(isShown('A new version is available.')).toBe(false)
  })

  test('the same id replaces the toast instead of adding another', () => {
    act(() => {
      showToast({ kind: 'info', message: 'First', id: 'one' })
      showToast({ kind: 'info', message: 'Second', id: 'one' })
    })
    expect(screen.queryByText('First')).not.toBeInTheDocument()
    expect(isShown('Second')).toBe(true)
  })
})
