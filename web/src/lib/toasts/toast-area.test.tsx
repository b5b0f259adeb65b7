// The toast area's chunk arrives after the first paint (toasts.ts). A toast raised earlier waits for it.
// A failed chunk is fetched again at the next toast and when back online (back-off: toast-area-retry.test.tsx).
import { render, screen } from '@testing-library/react'
import { expect, test, vi } from 'vitest'
import { createToasts, loadToaster } from './toasts.ts'
import { ToastArea } from './toast-area.tsx'
import { askedFor, importFlaky } from '../../test/flaky-import.ts'

const chunk = { failures: 0, requests: 0 }
const toasts = createToasts({ loadArea: () => importFlaky(chunk, loadToaster, 'toaster.tsx') })
const showToast = toasts.show

/** The chunk was asked for `requests` times in all, and the last failure has reached toasts.ts. */
async function failedAfter(requests: number) {
  await askedFor(chunk, requests)
  expect(toasts.getSnapshot(), 'nothing to show toasts with yet').toBeNull()
}

test('toasts raised before the area is in wait, in order, and show once it is; a failed chunk is asked for again at the next toast and when the browser comes back online', async () => {
  // The back-off's own retries (toast-area-retry.test.tsx) are held still, so every request here is one of the steps'.
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  chunk.failures = 3
  const first = showToast({ kind: 'error', message: 'First, raised before the area' })
  expect(first).toMatch(/^toast-\d+$/)
  await failedAfter(1)
  const second = showToast({ kind: 'info', message: 'Second' }) // asks again: fails again
  expect(second).not.toBe(first)
  await failedAfter(2)
  render(<ToastArea toasts={toasts} afterFirstPaint={() => Promise.resolve()} />) // the layout's slot asks as it mounts: fails a third time
  await failedAfter(3)
  window.dispatchEvent(new Event('online')) // asks again: the chunk is in
  await askedFor(chunk, 4)
  vi.useRealTimers()
  const shown = await screen.findAllByText(/^(First, raised before the area|Second)$/)
  expect(shown.map((one) => one.textContent)).toEqual(['Second', 'First, raised before the area']) // newest on top
  expect(screen.getByText('First, raised before the area')).toHaveAttribute('role', 'alert')
  expect(chunk.requests).toBe(4)
})
