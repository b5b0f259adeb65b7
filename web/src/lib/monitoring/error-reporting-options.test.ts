import { describe, expect, test } from 'vitest'
import { getSentryOptions, TRACE_PROPAGATION_TARGETS } from './error-reporting.ts'

const DSN = 'https://public@sentry.example/7'
const FALLBACK = 'https://fallback@sentry.example/1'

describe('the error reporter options (docs/behaviour.md: Constants)', () => {
  test('every option, as docs/behaviour.md: Constants gives it', () => {
    expect(
      getSentryOptions({
        config: { sentryDsn: DSN, environment: 'staging' },
        fallbackDsn: FALLBACK,
        release: 'build-1',
      }),
    ).toEqual({
      dsn: DSN,
      environment: 'staging',
      release: 'build-1',
      tracesSampleRate: 1,
      maxBreadcrumbs: 100,
      tracePropagationTargets: ['localhost', /^\//],
      ignoreErrors: [
        'ResizeObserver loop limit exceeded',
        'ResizeObserver loop completed with undelivered notifications',
      ],
      // With keepalive, envelopes after a large one failed as "Failed to fetch" in Chromium.
      transportOptions: { fetchOptions: { keepalive: false } },
    })
  })

  const dsns = [
    { name: 'config.json names a DSN: that one', sentryDsn: DSN, fallbackDsn: FALLBACK, dsn: DSN },
    { name: 'it names none: the fallback', sentryDsn: null, fallbackDsn: FALLBACK, dsn: FALLBACK },
    { name: 'neither: reporting off', sentryDsn: null, fallbackDsn: null, dsn: null },
  ] as const

  test.each(dsns)('DSN: $name', ({ sentryDsn, fallbackDsn, dsn }) => {
    const options = getSentryOptions({
      config: { sentryDsn, environment: 'development' },
      fallbackDsn,
      release: null,
    })
    expect(options?.dsn ?? null).toBe(dsn)
  })

  test("the environment defaults to 'development'; no build id, no release", () => {
    const options = getSentryOptions({
      config: { sentryDsn: DSN, environment: '' },
      fallbackDsn: null,
      release: null,
    })
    expect(options?.environment).toBe('development')
    expect(options).not.toHaveProperty('release')
  })

  // How the SDK reads the targets in a browser: the full URL, and for a same-origin call also its path.
  const matches = (url: string, origin = 'https://app.example') => {
    const resolved = new URL(url, `${origin}/process`)
    const candidates = [resolved.href, ...(resolved.origin === origin ? [resolved.pathname] : [])]
    return TRACE_PROPAGATION_TARGETS.some((target) =>
      candidates.some((candidate) =>
        typeof target === 'string' ? candidate.includes(target) : target.test(candidate),
      ),
    )
  }
  const urls = [
    { url: '/api/me', traced: true },
    { url: 'https://app.example/api/process', traced: true },
    { url: 'http://localhost:4010/api/me', traced: true },
    { url: 'https://other.example/api/me', traced: false },
    { url: 'https://sentry.example/api/7/envelope/', traced: false },
  ] as const

  test.each(urls)('tracing headers for $url: $traced', ({ url, traced }) => {
    expect(matches(url)).toBe(traced)
  })
})
