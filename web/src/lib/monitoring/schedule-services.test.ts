import { expect, test, vi } from 'vitest'
import { createErrorReporter } from './error-reporter.ts'
import { scheduleSupportingServices } from './schedule-services.ts'
import type { SupportingServicesDeps } from './supporting-services.ts'

/** A loaded window that becomes idle when the test says. */
function createIdleWindow() {
  const events = new EventTarget()
  const idle: (() => void)[] = []
  const win = {
    document: { readyState: 'complete' as DocumentReadyState },
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    dispatchEvent: events.dispatchEvent.bind(events),
    setTimeout: () => 0,
    clearTimeout: () => undefined,
    requestIdleCallback: (fn: (deadline: IdleDeadline) => void) =>
      idle.push(() => fn({ didTimeout: false, timeRemaining: () => 50 })),
    cancelIdleCallback: () => undefined,
  }
  return { win, becomeIdle: () => idle.splice(0).forEach((fn) => fn()) }
}

function createDeps() {
  const errors = createErrorReporter()
  return {
    errors,
    config: {} as SupportingServicesDeps['config'],
    store: {} as SupportingServicesDeps['store'],
    router: {} as SupportingServicesDeps['router'],
  }
}

test('nothing of the services is loaded before the page is idle; an unhandled error meanwhile waits for the SDK', async () => {
  const { win, becomeIdle } = createIdleWindow()
  const deps = createDeps()
  const startSupportingServices = vi.fn<(deps: SupportingServicesDeps) => void>()
  const load = vi.fn(async () => ({ startSupportingServices }))
  const prefetched = vi.fn(async () => undefined)
  scheduleSupportingServices(deps, { target: win, load, prefetch: [prefetched] })
  win.dispatchEvent(new ErrorEvent('error', { error: new Error('early') }))
  expect(load).not.toHaveBeenCalled()
  expect(prefetched).not.toHaveBeenCalled()

  becomeIdle()
  await vi.waitFor(() => expect(startSupportingServices).toHaveBeenCalledOnce())
  expect(prefetched).toHaveBeenCalledOnce()
  const captured: unknown[] = []
  deps.errors.attach((error) => captured.push(error))
  expect(captured).toEqual([new Error('early')])

  // Once the SDK is in, the early listener is stopped: a later error is the SDK's own handlers', not queued twice.
  startSupportingServices.mock.calls[0]![0].stopEarlyListener()
  win.dispatchEvent(new ErrorEvent('error', { error: new Error('late') }))
  expect(captured).toEqual([new Error('early')])
})

test('a first key press starts them without waiting for idle', async () => {
  const { win } = createIdleWindow()
  const startSupportingServices = vi.fn()
  scheduleSupportingServices(createDeps(), { target: win, load: async () => ({ startSupportingServices }) })
  win.dispatchEvent(new Event('keydown'))
  await vi.waitFor(() => expect(startSupportingServices).toHaveBeenCalledOnce())
})
