import { act, fireEvent, render, screen } from '@testing-library/react'
import { toast } from 'react-hot-toast'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { showPromiseToast, showToast } from './toasts.ts'
import { AppToaster } from './toaster.tsx'

beforeEach(() => {
  vi.useFakeTimers()
  render(<AppToaster />)
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

describe('toasts (spec 8, 9)', () => {
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
