import { describe, expect, test, vi } from 'vitest'
import { getRecorderOptions, startRecorder, type RecorderTracker } from './recorder.ts'
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

// The tracker's options, by what they make it do (docs/behaviour.md: Calls, Constants), not as a copy of the object.
describe('the recorder options', () => {
  const options = getRecorderOptions({ projectKey: 'mock-project', host: 'http://127.0.0.1:4010' })

  test("the project key is the runtime configuration's", () => {
    expect(getRecorderOptions({ projectKey: 'other', host: 'https://rec.example' }).projectKey).toBe('other')
    expect(options.projectKey).toBe('mock-project')
  })

  test.each([
    { host: 'https://rec.example', ingestPoint: 'https://rec.example/ingest' },
    { host: 'https://rec.example/', ingestPoint: 'https://rec.example/ingest' },
    { host: 'https://example.com/recorder', ingestPoint: 'https://example.com/recorder/ingest' },
  ] as const)('ingest point of $host: $ingestPoint', ({ host, ingestPoint }) => {
    expect(getRecorderOptions({ projectKey: 'k', host }).ingestPoint).toBe(ingestPoint)
  })

  test.each([
    [
      'starts on plain http (the mock server, QA): the secure-mode check is off',
      { __DISABLE_SECURE_MODE: true },
    ],
    [
      'e-mail addresses are recorded as typed and shown',
      { obscureTextEmails: false, obscureInputEmails: false },
    ],
    ['the canvas is recorded', { canvas: { disableCanvas: false } }],
    [
      'every call is captured with its payloads, not only failures',
      { network: { capturePayload: true, failuresOnly: false } },
    ],
    ['calls made inside frames are captured too', { network: { captureInIframes: true } }],
    ["the app's calls carry no header of the recorder's own", { network: { sessionTokenHeader: false } }],
  ] as const)('%s', (_, expected) => {
    expect(options).toMatchObject(expected)
  })

  test('no credential reaches a recording: what the tracker captures of a call passes the sanitizer', () => {
    const captured = options.network!.sanitizer!({
      status: 200,
      method: 'POST',
      url: '/api/auth/login?code=123456',
      request: {
        headers: { Authorization: 'Bearer eyJ.a.b', 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'ada@example.com', password: 'analytical-engine-1843' }),
      },
      response: { headers: { 'Set-Cookie': 'sso=abc' }, body: { refreshToken: 'r-1' } },
    })
    const recorded = JSON.stringify(captured)
    for (const secret of ['eyJ.a.b', 'analytical-engine-1843', '123456', 'sso=abc', 'r-1'])
      expect(recorded).not.toContain(secret)
    expect(recorded, 'what is not a credential stays').toContain('ada@example.com')
  })

  test('the headers the tracker drops by name are credentials only', () => {
    for (const header of options.network!.ignoreHeaders as string[])
      expect(['authorization', 'cookie', 'set-cookie']).toContain(header)
  })
})
