// A toast that waited for the toast area (toasts.ts) longer than a toast lasts is dropped when the area connects:
// "Session expired", raised while the area's chunk could not be loaded, must not greet whoever signs in next. The
// chunk is toaster.tsx through a loader that fails as often as the test says.
import { render, screen } from '@testing-library/react'
import { afterEach, expect, test, vi } from 'vitest'
import { TOAST_DURATION_MS } from '../config/constants.ts'
import { createToasts, loadToaster } from './toasts.ts'
import { ToastArea } from './toast-area.tsx'
import { importFlaky } from '../../test/flaky-import.ts'

const chunk = { failures: 0, requests: 0 }
const toasts = createToasts({ loadArea: () => importFlaky(chunk, loadToaster, 'toaster.tsx') })
const { show: showToast, showPromise: showPromiseToast } = toasts

afterEach(() => vi.restoreAllMocks())

/** performance.now(), the clock toasts.ts measures waiting with, as the test sets it. */
function pauseClock() {
  let now = 1_000
  vi.spyOn(performance, 'now').mockImplementation(() => now)
  return { advance: (ms: number) => void (now += ms) }
}

test('toasts that waited longer than a toast lasts are dropped; a persistent one, a pending promise and a fresh one show', async () => {
  const clock = pauseClock()
  chunk.failures = 1
  showToast({ kind: 'error', message: 'Session expired, raised offline' })
  showToast({ kind: 'info', message: 'New version', persistent: true })
  let settle = (_value: string) => {}
  showPromiseToast(new Promise<string>((resolve) => (settle = resolve)), {
    loading: 'Saving',
    success: 'Saved',
    error: 'Not saved',
  })
  showPromiseToast(Promise.resolve('done'), { loading: 'Old work', success: 'Old work done', error: 'x' })
  await vi.waitFor(() => expect(chunk.requests).toBe(1))
  await new Promise((resolve) => setTimeout(resolve, 0))
  expect(toasts.getSnapshot(), 'the first try failed').toBeNull()

  clock.advance(TOAST_DURATION_MS - 1)
  showToast({ kind: 'success', message: 'Raised just before' })
  clock.advance(1) // the first toasts have now waited exactly as long as a toast lasts
  showToast({ kind: 'success', message: 'Fresh' }) // asks again: the chunk is in
  render(<ToastArea toasts={toasts} afterFirstPaint={() => Promise.resolve()} />)
  await screen.findByText('Fresh')
  expect(screen.getByText('Raised just before')).toBeInTheDocument()
  expect(screen.getByText('New version')).toBeInTheDocument()
  expect(screen.getByText('Saving')).toBeInTheDocument()
  expect(screen.queryByText('Session expired, raised offline')).toBeNull()
  expect(screen.queryByText(/^Old work/)).toBeNull()
  settle('ok')
  expect(await screen.findByText('Saved')).toBeInTheDocument()
})
