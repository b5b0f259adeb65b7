import { expect, test, vi } from 'vitest'
import {
  IDLE_TIMEOUT_MS,
  INTERACTION_EVENTS,
  LOAD_TIMEOUT_MS,
  NO_IDLE_CALLBACK_DELAY_MS,
  runWhenIdle,
  type IdleTarget,
} from './idle-start.ts'

/** A window whose idle periods, timers and events happen only when the test says. */
function createFakeWindow({
  readyState,
  idleCallbacks = true,
}: {
  readyState: DocumentReadyState
  idleCallbacks?: boolean
}) {
  const events = new EventTarget()
  const idle = new Map<number, { fn: () => void; timeout?: number }>()
  const timers = new Map<number, { fn: () => void; ms: number }>()
  let nextId = 1
  const win: IdleTarget = {
    document: { readyState },
    addEventListener: (type, listener, options) => events.addEventListener(type, listener, options),
    removeEventListener: (type, listener, options) => events.removeEventListener(type, listener, options),
    setTimeout: (fn, ms) => (timers.set(nextId, { fn, ms }), nextId++),
    clearTimeout: (id) => void timers.delete(id),
    ...(idleCallbacks && {
      requestIdleCallback: (fn: (deadline: IdleDeadline) => void, options?: IdleRequestOptions) => {
        idle.set(nextId, {
          fn: () => fn({ didTimeout: false, timeRemaining: () => 50 }),
          timeout: options?.timeout,
        })
        return nextId++
      },
      cancelIdleCallback: (id: number) => void idle.delete(id),
    }),
  }
  const fire = (type: string) => events.dispatchEvent(new Event(type))
  const runAll = (queue: Map<number, { fn: () => void }>) => {
    const pending = [...queue]
    queue.clear()
    pending.forEach(([, { fn }]) => fn())
  }
  return {
    win,
    idle,
    timers,
    load: () => fire('load'),
    interact: (type: string) => fire(type),
    becomeIdle: () => runAll(idle),
    runTimers: () => runAll(timers),
  }
}

test('a page still loading: nothing before its load event, then at the first idle period, bounded', () => {
  const fake = createFakeWindow({ readyState: 'loading' })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win)
  expect(fake.idle.size).toBe(0)
  fake.load()
  expect(fn).not.toHaveBeenCalled()
  expect([...fake.idle.values()].map((one) => one.timeout)).toEqual([IDLE_TIMEOUT_MS])
  fake.becomeIdle()
  expect(fn).toHaveBeenCalledOnce()
})

test('a loaded page: at the next idle period', () => {
  const fake = createFakeWindow({ readyState: 'complete' })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win)
  expect(fn).not.toHaveBeenCalled()
  fake.becomeIdle()
  expect(fn).toHaveBeenCalledOnce()
})

test.each(INTERACTION_EVENTS)('a first %s starts it at once, even while loading, and only once', (type) => {
  const fake = createFakeWindow({ readyState: 'interactive' })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win)
  fake.interact(type)
  expect(fn).toHaveBeenCalledOnce()
  fake.load()
  fake.becomeIdle()
  fake.runTimers()
  fake.interact(type)
  expect(fn).toHaveBeenCalledOnce()
  expect(fake.idle.size + fake.timers.size).toBe(0)
})

test('other events (a scroll, a mouse move) are no interaction', () => {
  const fake = createFakeWindow({ readyState: 'complete' })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win)
  fake.interact('scroll')
  fake.interact('mousemove')
  expect(fn).not.toHaveBeenCalled()
})

test('idle after an interaction already started it: not a second time', () => {
  const fake = createFakeWindow({ readyState: 'complete' })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win)
  fake.interact('keydown')
  fake.becomeIdle()
  expect(fn).toHaveBeenCalledOnce()
})

test('without requestIdleCallback: a fixed delay after the load event', () => {
  const fake = createFakeWindow({ readyState: 'loading', idleCallbacks: false })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win)
  expect([...fake.timers.values()].map((one) => one.ms)).toEqual([LOAD_TIMEOUT_MS])
  fake.load()
  expect([...fake.timers.values()].map((one) => one.ms)).toEqual([NO_IDLE_CALLBACK_DELAY_MS])
  expect(fn).not.toHaveBeenCalled()
  fake.runTimers()
  expect(fn).toHaveBeenCalledOnce()
})

test('a load event that never comes: the bound stands in for it', () => {
  const fake = createFakeWindow({ readyState: 'interactive' })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win)
  fake.runTimers() // LOAD_TIMEOUT_MS passed
  expect(fn).not.toHaveBeenCalled()
  fake.becomeIdle()
  expect(fn).toHaveBeenCalledOnce()
  fake.load()
  fake.becomeIdle()
  expect(fn).toHaveBeenCalledOnce()
})

test('cancelled before it ran: it never runs', () => {
  const fake = createFakeWindow({ readyState: 'complete' })
  const fn = vi.fn()
  const cancel = runWhenIdle(fn, fake.win)
  cancel()
  fake.becomeIdle()
  fake.interact('pointerdown')
  expect(fn).not.toHaveBeenCalled()
})

test('settleMs: the idle period starts a timer of that length, and it runs then', () => {
  const fake = createFakeWindow({ readyState: 'complete' })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win, { settleMs: 10_000 })
  fake.becomeIdle()
  expect(fn).not.toHaveBeenCalled()
  expect([...fake.timers.values()].map((one) => one.ms)).toEqual([10_000])
  fake.runTimers()
  expect(fn).toHaveBeenCalledOnce()
})

test('settleMs: an interaction while it settles runs it at once and clears the timer', () => {
  const fake = createFakeWindow({ readyState: 'complete' })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win, { settleMs: 10_000 })
  fake.becomeIdle()
  fake.interact('pointerdown')
  expect(fn).toHaveBeenCalledOnce()
  expect(fake.timers.size).toBe(0)
  fake.runTimers()
  expect(fn).toHaveBeenCalledOnce()
})

test('settleMs without requestIdleCallback: the fixed delay, then the settling time', () => {
  const fake = createFakeWindow({ readyState: 'complete', idleCallbacks: false })
  const fn = vi.fn()
  runWhenIdle(fn, fake.win, { settleMs: 10_000 })
  expect([...fake.timers.values()].map((one) => one.ms)).toEqual([NO_IDLE_CALLBACK_DELAY_MS])
  fake.runTimers()
  expect(fn).not.toHaveBeenCalled()
  expect([...fake.timers.values()].map((one) => one.ms)).toEqual([10_000])
  fake.runTimers()
  expect(fn).toHaveBeenCalledOnce()
})

/** runWhenIdle on a loaded page, told to wait for a first paint that comes when `painted` is called. */
function runAfterPaint() {
  const fake = createFakeWindow({ readyState: 'complete' })
  const fn = vi.fn()
  let painted: () => void = () => {}
  runWhenIdle(fn, fake.win, { after: new Promise<void>((resolve) => (painted = resolve)) })
  return { fake, fn, painted: () => painted() }
}

test('after: a loaded page is not watched for idle before the first paint; then at the next idle period', async () => {
  const { fake, fn, painted } = runAfterPaint()
  await Promise.resolve()
  expect(fake.idle.size, 'no idle callback asked for before the paint').toBe(0)
  fake.becomeIdle()
  expect(fn).not.toHaveBeenCalled()
  painted()
  await vi.waitFor(() => expect(fake.idle.size).toBe(1))
  fake.becomeIdle()
  expect(fn).toHaveBeenCalledOnce()
})

test('after: an interaction before the first paint still runs it at once, and the paint adds nothing', async () => {
  const { fake, fn, painted } = runAfterPaint()
  fake.interact('keydown')
  expect(fn).toHaveBeenCalledOnce()
  painted()
  await Promise.resolve()
  await Promise.resolve()
  expect(fake.idle.size).toBe(0)
  expect(fake.timers.size).toBe(0)
})
