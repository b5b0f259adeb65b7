import { expect, test } from 'vitest'
import {
  createFirstPaint,
  FIRST_PAINT_TIMEOUT_MS,
  waitForFirstPaint,
  type FirstPaintTarget,
} from './first-paint.ts'

/** A window whose paints and timers happen only when the test says. */
function createFakeWindow({
  visibilityState = 'visible',
  entryTypes = ['paint'],
  painted = false,
  observer = true,
  throws,
}: {
  visibilityState?: DocumentVisibilityState
  entryTypes?: string[]
  painted?: boolean
  observer?: boolean
  /** Where the observer throws: when made, or on `{ type }` (engines that take only entryTypes). */
  throws?: 'constructor' | 'observe'
} = {}) {
  const observers: { callback: PerformanceObserverCallback; connected: boolean }[] = []
  const timers: { fn: () => void; ms: number }[] = []
  class FakeObserver {
    static supportedEntryTypes = entryTypes
    private readonly record: { callback: PerformanceObserverCallback; connected: boolean }
    constructor(callback: PerformanceObserverCallback) {
      if (throws === 'constructor') throw new TypeError('Illegal constructor')
      this.record = { callback, connected: false }
      observers.push(this.record)
    }
    observe() {
      if (throws === 'observe') throw new TypeError("Failed to execute 'observe': type not supported")
      this.record.connected = true
    }
    disconnect() {
      this.record.connected = false
    }
  }
  const entries = (names: string[]) =>
    ({
      getEntriesByName: (name: string) => names.filter((one) => one === name),
    }) as unknown as PerformanceObserverEntryList
  const win: FirstPaintTarget = {
    document: { visibilityState },
    performance: {
      getEntriesByName: (name) =>
        (painted && name === 'first-contentful-paint' ? [{}] : []) as PerformanceEntryList,
    },
    ...(observer && {
      PerformanceObserver: FakeObserver as unknown as FirstPaintTarget['PerformanceObserver'],
    }),
    setTimeout: (fn, ms) => timers.push({ fn, ms }),
  }
  return {
    win,
    observers,
    timers,
    /** The browser reports paint entries of these names to every connected observer. */
    paint: (...names: string[]) =>
      observers
        .filter((one) => one.connected)
        .forEach((one) => one.callback(entries(names), {} as PerformanceObserver)),
  }
}

/** Whether the promise has settled once the microtasks queued so far have run. */
async function isSettled(promise: Promise<unknown>): Promise<boolean> {
  let settled = false
  void promise.then(() => (settled = true))
  await Promise.resolve()
  await Promise.resolve()
  return settled
}

test('waits for the first contentful paint: not a first paint without content, then resolves and stops observing', async () => {
  const fake = createFakeWindow()
  const paint = waitForFirstPaint(fake.win)
  expect(await isSettled(paint)).toBe(false)
  fake.paint('first-paint')
  expect(await isSettled(paint)).toBe(false)
  fake.paint('first-contentful-paint')
  expect(await isSettled(paint)).toBe(true)
  expect(fake.observers.every((one) => !one.connected)).toBe(true)
})

test.each([
  [
    'a hidden page (a tab opened in the background paints nothing until shown)',
    { visibilityState: 'hidden' as const },
  ],
  ['a browser without PerformanceObserver', { observer: false }],
  ['a browser that does not report paints', { entryTypes: ['resource'] }],
  ['a page that has painted already', { painted: true }],
  ['an observer that throws as it is made', { throws: 'constructor' as const }],
  ['an observer that throws when asked to observe a type', { throws: 'observe' as const }],
])('nothing to wait for: %s resolves at once', async (_, options) => {
  const fake = createFakeWindow(options)
  expect(await isSettled(waitForFirstPaint(fake.win))).toBe(true)
  expect(fake.timers).toEqual([])
})

test('a paint never reported: resolves after FIRST_PAINT_TIMEOUT_MS and stops observing', async () => {
  const fake = createFakeWindow()
  const paint = waitForFirstPaint(fake.win)
  expect(fake.timers.map((one) => one.ms)).toEqual([FIRST_PAINT_TIMEOUT_MS])
  expect(await isSettled(paint)).toBe(false)
  fake.timers[0]!.fn()
  expect(await isSettled(paint)).toBe(true)
  expect(fake.observers.every((one) => !one.connected)).toBe(true)
})

test('createFirstPaint: nothing is observed until asked; then one wait, shared by every caller', async () => {
  const fake = createFakeWindow()
  const afterFirstPaint = createFirstPaint(fake.win)
  expect(fake.observers, 'made, not yet asked').toEqual([])
  const first = afterFirstPaint()
  expect(afterFirstPaint()).toBe(first)
  expect(fake.observers).toHaveLength(1)
  fake.paint('first-contentful-paint')
  expect(await isSettled(afterFirstPaint())).toBe(true)
  expect(fake.observers).toHaveLength(1)
})

test('createFirstPaint: each page (each call of the factory) waits for its own paint', async () => {
  const painted = createFakeWindow()
  const other = createFakeWindow()
  const paintedPage = createFirstPaint(painted.win)
  const otherPage = createFirstPaint(other.win)
  void paintedPage()
  painted.paint('first-contentful-paint')
  expect(await isSettled(paintedPage())).toBe(true)
  expect(await isSettled(otherPage())).toBe(false)
})
