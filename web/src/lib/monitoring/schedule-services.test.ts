import { expect, test, vi } from 'vitest'
import { createErrorReporter } from './error-queue.ts'
import { FAILED_TO_LOAD_SERVICES } from './messages.ts'
import { scheduleSupportingServices, SERVICES_SETTLE_MS } from './schedule-services.ts'
import type { SupportingServicesDeps } from './supporting-services.ts'

/** A loaded window that becomes idle, and whose timers fire, when the test says. */
function createIdleWindow() {
  const events = new EventTarget()
  const idle: (() => void)[] = []
  const timers = new Map<number, { fn: () => void; ms: number }>()
  let nextTimer = 1
  const win = {
    document: { readyState: 'complete' as DocumentReadyState },
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    dispatchEvent: events.dispatchEvent.bind(events),
    setTimeout: (fn: () => void, ms: number) => (timers.set(nextTimer, { fn, ms }), nextTimer++),
    clearTimeout: (id: number) => void timers.delete(id),
    requestIdleCallback: (fn: (deadline: IdleDeadline) => void) =>
      idle.push(() => fn({ didTimeout: false, timeRemaining: () => 50 })),
    cancelIdleCallback: () => undefined,
  }
  const fireTimers = () => {
    const due = [...timers.values()]
    timers.clear()
    due.forEach(({ fn }) => fn())
  }
  return { win, timers, fireTimers, becomeIdle: () => idle.splice(0).forEach((fn) => fn()) }
}

function createDeps() {
  const errors = createErrorReporter()
  return {
    errors,
    config: {} as SupportingServicesDeps['config'],
    store: {} as SupportingServicesDeps['store'],
    router: {} as SupportingServicesDeps['router'],
    toasts: {} as SupportingServicesDeps['toasts'],
  }
}

test('left alone, the page fetches the prefetched chunks at idle and starts the services a settling time later', async () => {
  const { win, timers, fireTimers, becomeIdle } = createIdleWindow()
  const startSupportingServices = vi.fn<(deps: SupportingServicesDeps) => void>()
  const load = vi.fn(async () => ({ startSupportingServices }))
  const prefetched = vi.fn(async () => undefined)
  scheduleSupportingServices(createDeps(), { target: win, load, prefetch: [prefetched] })
  expect(prefetched).not.toHaveBeenCalled()

  becomeIdle()
  expect(prefetched).toHaveBeenCalledOnce()
  expect(load).not.toHaveBeenCalled()
  expect([...timers.values()].map(({ ms }) => ms)).toEqual([SERVICES_SETTLE_MS])

  fireTimers()
  await vi.waitFor(() => expect(startSupportingServices).toHaveBeenCalledOnce())
  expect(load).toHaveBeenCalledOnce()
})

test('the first unhandled error starts the services at once, and it reaches the SDK; the early listener then stops', async () => {
  const { win, timers, fireTimers, becomeIdle } = createIdleWindow()
  const deps = createDeps()
  const startSupportingServices = vi.fn<(deps: SupportingServicesDeps) => void>()
  const load = vi.fn(async () => ({ startSupportingServices }))
  scheduleSupportingServices(deps, { target: win, load })
  expect(load).not.toHaveBeenCalled()

  win.dispatchEvent(new ErrorEvent('error', { error: new Error('early') }))
  await vi.waitFor(() => expect(startSupportingServices).toHaveBeenCalledOnce())
  // Started once: neither the idle period nor the settling timer loads them again.
  becomeIdle()
  expect(timers.size).toBe(0)
  fireTimers()
  win.dispatchEvent(new ErrorEvent('error', { error: new Error('second') }))
  expect(load).toHaveBeenCalledOnce()
  const captured: unknown[] = []
  deps.errors.attach((error) => captured.push(error))
  expect(captured).toEqual([new Error('early'), new Error('second')])

  // Once the SDK is in, the early listener stops, so a later error is not reported twice.
  startSupportingServices.mock.calls[0]![0].stopEarlyListener()
  win.dispatchEvent(new ErrorEvent('error', { error: new Error('late') }))
  expect(captured).toEqual([new Error('early'), new Error('second')])
})

test('an error the app caught and reported (the error page) starts them too', async () => {
  const { win } = createIdleWindow()
  const deps = createDeps()
  const startSupportingServices = vi.fn()
  scheduleSupportingServices(deps, { target: win, load: async () => ({ startSupportingServices }) })
  deps.errors.report(new Error('caught'))
  await vi.waitFor(() => expect(startSupportingServices).toHaveBeenCalledOnce())
})

test('a first key press starts them without waiting for idle; after idle, one cancels the settling timer', async () => {
  const { win } = createIdleWindow()
  const startSupportingServices = vi.fn()
  scheduleSupportingServices(createDeps(), { target: win, load: async () => ({ startSupportingServices }) })
  win.dispatchEvent(new Event('keydown'))
  await vi.waitFor(() => expect(startSupportingServices).toHaveBeenCalledOnce())

  const settled = createIdleWindow()
  const startLater = vi.fn()
  scheduleSupportingServices(createDeps(), {
    target: settled.win,
    load: async () => ({ startSupportingServices: startLater }),
  })
  settled.becomeIdle()
  settled.win.dispatchEvent(new Event('pointerdown'))
  await vi.waitFor(() => expect(startLater).toHaveBeenCalledOnce())
  expect(settled.timers.size).toBe(0)
})

test('a services chunk that cannot be loaded says so on the console, and nothing else happens', async () => {
  const { win, becomeIdle, fireTimers } = createIdleWindow()
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
  const failure = new TypeError('Failed to fetch dynamically imported module')
  scheduleSupportingServices(createDeps(), { target: win, load: () => Promise.reject(failure) })
  becomeIdle()
  fireTimers()
  await vi.waitFor(() => expect(warn).toHaveBeenCalledWith(FAILED_TO_LOAD_SERVICES, failure))
  warn.mockRestore()
})
