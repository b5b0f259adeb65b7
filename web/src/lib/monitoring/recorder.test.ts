import { expect, test, vi } from 'vitest'
import { startRecorder, type RecorderTracker } from './recorder.ts'
import type { IdentitySession } from './session-identity.ts'

const session: IdentitySession = {
  ready: true,
  isLoggedIn: true,
  user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
}
const store = { subscribe: () => () => {}, getSnapshot: () => session }

test('with a recorder configured: the tracker is built with the options, identified, then started', async () => {
  const order: string[] = []
  const built: unknown[] = []
  class FakeTracker implements RecorderTracker {
    constructor(options: unknown) {
      built.push(options)
    }
    setUserID = (id: string) => void order.push(`setUserID ${id}`)
    setMetadata = (key: string) => void order.push(`setMetadata ${key}`)
    start = async () => void order.push('start')
    stop = () => void order.push('stop')
    use<T>(fn: (app: { attachStartCallback(callback: () => void, useSafe?: boolean): void }) => T): T {
      return fn({ attachStartCallback: (callback, useSafe) => startCallbacks.push({ callback, useSafe }) })
    }
  }
  const startCallbacks: { callback: () => void; useSafe?: boolean }[] = []
  const lines: string[] = []
  const stop = await startRecorder({
    config: { recorder: { projectKey: 'mock-project', host: 'http://127.0.0.1:4010' } },
    store,
    logger: { log: (line) => lines.push(line), warn: (line) => lines.push(line) },
    loadTracker: async () => FakeTracker,
  })
  expect(built).toEqual([
    expect.objectContaining({ projectKey: 'mock-project', ingestPoint: 'http://127.0.0.1:4010/ingest' }),
  ])
  expect(order).toEqual([
    'setUserID ada@example.com',
    'setMetadata userId',
    'setMetadata name',
    'setMetadata email',
    'start',
  ])
  expect(lines).toEqual(['User ID set'])
  // Every start of the tracker, its own restarts included, re-applies the identity; a throw there is the tracker's.
  expect(startCallbacks).toEqual([{ callback: expect.any(Function), useSafe: true }])
  order.length = 0
  startCallbacks[0]!.callback()
  expect(order).toEqual([
    'setUserID ada@example.com',
    'setMetadata userId',
    'setMetadata name',
    'setMetadata email',
  ])
  stop?.()
  expect(order.at(-1)).toBe('stop')
})

test('without a recorder: nothing is loaded', async () => {
  const loadTracker = vi.fn()
  expect(await startRecorder({ config: { recorder: null }, store, logger: console, loadTracker })).toBeNull()
  expect(loadTracker).not.toHaveBeenCalled()
})

test('a tracker that cannot load leaves the app running', async () => {
  const warn = vi.fn()
  const stop = await startRecorder({
    config: { recorder: { projectKey: 'k', host: 'http://rec.test' } },
    store,
    logger: { log: () => {}, warn },
    loadTracker: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
  })
  expect(stop).toBeNull()
  expect(warn).toHaveBeenCalledWith('Failed to start the session recorder:', expect.any(TypeError))
})
