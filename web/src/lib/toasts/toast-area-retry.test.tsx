// The toast area's chunk failing while a toast waits (toasts.ts: TOAST_AREA_RETRY_MS).
// It is fetched again after a back-off, but only while a waiting toast would still be fresh.
import { render, screen } from '@testing-library/react'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { TOAST_DURATION_MS } from '../config/constants.ts'
import { createToasts, loadToaster, TOAST_AREA_RETRY_MS, type Toasts } from './toasts.ts'
import { ToastArea } from './toast-area.tsx'
import { askedFor as askedForIn, importFlaky, until } from '../../test/flaky-import.ts'

const chunk = { failures: 0, requests: 0 }
let toasts: Toasts

beforeEach(() => {
  chunk.requests = 0
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] })
  toasts = createToasts({ loadArea: () => importFlaky(chunk, loadToaster, 'toaster.tsx') })
})
afterEach(() => vi.useRealTimers())

const askedFor = (requests: number) => askedForIn(chunk, requests)
const pass = (ms: number) => vi.advanceTimersByTimeAsync(ms)

test('no toast waiting: a failed chunk is left to the next toast, not asked for on a timer', async () => {
  chunk.failures = 1
  toasts.load() // as the layout asks right after the first paint
  await askedFor(1)
  await pass(10 * TOAST_DURATION_MS)
  await askedFor(1)
  expect(toasts.getSnapshot()).toBeNull()
})

test('a toast waiting: the chunk is asked for again after each back-off, until the toast would be stale', async () => {
  chunk.failures = 100
  toasts.show({ kind: 'error', message: 'Raised while the network fails' })
  await askedFor(1)
  let elapsed = 0
  const fresh = TOAST_AREA_RETRY_MS.filter((delay) => (elapsed += delay) < TOAST_DURATION_MS)
  expect(fresh.length, 'some retries fit in a toast’s time, not all').toBeLessThan(TOAST_AREA_RETRY_MS.length)
  for (const [index, delay] of fresh.entries()) {
    await pass(delay - 1)
    await askedFor(index + 1)
    await pass(1)
    await askedFor(index + 2)
  }
  await pass(10 * TOAST_DURATION_MS)
  await askedFor(fresh.length + 1) // no retry for a toast nobody would see
})

test('"Session expired" raised while the chunk fails once: shown after the first back-off, with no other toast', async () => {
  chunk.failures = 1
  toasts.show({ kind: 'error', message: 'Session expired. Please login again.' })
  await askedFor(1)
  await pass(TOAST_AREA_RETRY_MS[0] - 1)
  await askedFor(1)
  await pass(1)
  // The import may take a few microtasks. The fake clock stands still, so the toast stays fresh.
  await until(() => toasts.getSnapshot() !== null, 'the toast area')
  vi.useRealTimers()
  expect(toasts.getSnapshot()).not.toBeNull()
  expect(chunk.requests).toBe(2)
  render(<ToastArea toasts={toasts} afterFirstPaint={() => Promise.resolve()} />)
  expect(await screen.findByText('Session expired. Please login again.')).toBeInTheDocument()
})
