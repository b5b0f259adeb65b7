import { describe, expect, test, vi } from 'vitest'
import { createErrorReporter, listenForUnhandledErrors } from './error-queue.ts'
import { startErrorReporting } from './error-reporting.ts'
import { ADA, createFakeIdentityStore, SIGNED_OUT, signedIn } from '../../test/fake-identity-store.ts'

describe('the error reporter', () => {
  test('errors before the SDK wait, and are sent when it attaches; later ones go at once', () => {
    const reporter = createErrorReporter()
    const early = new Error('early')
    reporter.report(early)
    const capture = vi.fn()
    reporter.attach(capture)
    expect(capture).toHaveBeenCalledExactlyOnceWith(early)
    const late = new Error('late')
    reporter.report(late)
    expect(capture).toHaveBeenLastCalledWith(late)
  })

  test('keeps at most 20 early errors', () => {
    const reporter = createErrorReporter()
    for (let i = 0; i < 25; i++) reporter.report(new Error(`e${i}`))
    const capture = vi.fn()
    reporter.attach(capture)
    expect(capture).toHaveBeenCalledTimes(20)
  })

  test('disabled: nothing kept, nothing sent', () => {
    const reporter = createErrorReporter()
    reporter.report(new Error('early'))
    reporter.disable()
    reporter.report(new Error('late'))
    const capture = vi.fn()
    reporter.attach(capture)
    expect(capture).not.toHaveBeenCalled()
  })

  test('onWaiting: called once, at the first waiting error, or at once if one already waits; never once sent or disabled', () => {
    const reporter = createErrorReporter()
    const first = vi.fn()
    reporter.onWaiting(first)
    expect(first).not.toHaveBeenCalled()
    reporter.report(new Error('one'))
    reporter.report(new Error('two'))
    expect(first).toHaveBeenCalledOnce()
    const late = vi.fn()
    reporter.onWaiting(late)
    expect(late).toHaveBeenCalledOnce()

    const attached = createErrorReporter()
    const afterAttach = vi.fn()
    attached.onWaiting(afterAttach)
    attached.attach(() => undefined)
    attached.report(new Error('sent at once'))
    expect(afterAttach).not.toHaveBeenCalled()

    const disabled = createErrorReporter()
    const afterDisable = vi.fn()
    disabled.onWaiting(afterDisable)
    disabled.disable()
    disabled.report(new Error('dropped'))
    disabled.onWaiting(afterDisable)
    expect(afterDisable).not.toHaveBeenCalled()
  })

  test('the early listener queues unhandled errors and rejections until stopped', () => {
    const target = new EventTarget()
    const reporter = { report: vi.fn() }
    const stop = listenForUnhandledErrors(target, reporter)
    const error = new Error('thrown')
    target.dispatchEvent(Object.assign(new Event('error'), { error }))
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason: 'rejected' }))
    stop()
    target.dispatchEvent(Object.assign(new Event('error'), { error: new Error('after') }))
    expect(reporter.report.mock.calls).toEqual([[error], ['rejected']])
  })
})

function createFakeSdk() {
  return {
    init: vi.fn(),
    captureException: vi.fn((_error: unknown) => 'event-id'),
    browserTracingIntegration: vi.fn(() => ({ name: 'BrowserTracing' })),
    setUser: vi.fn(),
    startSession: vi.fn(),
    captureSession: vi.fn(),
  }
}

const store = createFakeIdentityStore(signedIn(ADA))

describe('starting error reporting (the SDK loaded after first paint)', () => {
  test('with a DSN: the SDK starts with the options and tracing, then takes the waiting errors', async () => {
    const sdk = createFakeSdk()
    const reporter = createErrorReporter()
    const early = new Error('before the SDK')
    reporter.report(early)
    const stopEarlyListener = vi.fn()
    const on = await startErrorReporting({
      config: { sentryDsn: 'http://mock@127.0.0.1:4010/1', environment: 'development' },
      reporter,
      store,
      stopEarlyListener,
      loadSdk: async () => sdk as never,
      fallbackDsn: null,
      release: 'build-1',
    })
    expect(on).toBe(true)
    expect(sdk.init).toHaveBeenCalledExactlyOnceWith(
      expect.objectContaining({
        dsn: 'http://mock@127.0.0.1:4010/1',
        environment: 'development',
        release: 'build-1',
        tracesSampleRate: 1,
        maxBreadcrumbs: 100,
        tracePropagationTargets: ['localhost', /^\//],
        integrations: [{ name: 'BrowserTracing' }],
      }),
    )
    expect(stopEarlyListener).toHaveBeenCalledOnce()
    expect(sdk.captureException).toHaveBeenCalledExactlyOnceWith(early)
  })

  test('the user is set before the waiting errors go, and follows the session: none after a log-out', async () => {
    const sdk = createFakeSdk()
    const order: string[] = []
    sdk.setUser.mockImplementation((user) => void order.push(`setUser ${JSON.stringify(user)}`))
    sdk.captureException.mockImplementation(
      (error: unknown) => (order.push(`capture ${(error as Error).message}`), 'id'),
    )
    const session = createFakeIdentityStore(signedIn(ADA))
    const reporter = createErrorReporter()
    reporter.report(new Error('early'))
    await startErrorReporting({
      config: { sentryDsn: 'http://mock@127.0.0.1:4010/1', environment: 'development' },
      reporter,
      store: session,
      loadSdk: async () => sdk as never,
      fallbackDsn: null,
    })
    session.set(SIGNED_OUT)
    reporter.report(new Error('after the log-out'))
    expect(order).toEqual([
      'setUser {"id":"u1","email":"ada@example.com"}',
      'capture early',
      'setUser null',
      'capture after the log-out',
    ])
  })

  test('without a DSN: the SDK is not even loaded', async () => {
    const loadSdk = vi.fn()
    const on = await startErrorReporting({
      config: { sentryDsn: null, environment: 'development' },
      reporter: createErrorReporter(),
      store,
      loadSdk,
      fallbackDsn: null,
    })
    expect(on).toBe(false)
    expect(loadSdk).not.toHaveBeenCalled()
  })

  test('an SDK that cannot load leaves the app running', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
    const on = await startErrorReporting({
      config: { sentryDsn: 'https://k@sentry.example/1', environment: 'development' },
      reporter: createErrorReporter(),
      store,
      loadSdk: () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
    })
    expect(on).toBe(false)
    expect(warn).toHaveBeenCalledWith('Failed to start error reporting:', expect.any(TypeError))
    warn.mockRestore()
  })
})
