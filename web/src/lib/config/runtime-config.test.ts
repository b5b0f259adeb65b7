import { describe, expect, test, vi } from 'vitest'
import { createRecordingFetch, json } from '../../test/recording-fetch.ts'
import { INLINE_CONFIG_ID } from '#api/runtime-config.ts'
import { loadRuntimeConfig, parseRuntimeConfig, readInlineRuntimeConfig } from './runtime-config.ts'

/** What the app runs with when config.json says nothing usable. */
const FALLBACK = parseRuntimeConfig({})

// Each field's fallback, by what it makes the app do (docs/behaviour.md: Routes, Constants).
test.each([
  ['apiBase', '', 'the API is on the page’s own origin'],
  ['environment', 'development', 'error reports are filed under development'],
  ['sentryDsn', null, 'no error reporting unless the build names a DSN'],
  ['recorder', null, 'no session recorder'],
  ['mock', false, 'no QA panel'],
  ['toasts', 'top-center', 'the first toast reading'],
  ['externalSignIn', true, 'the single sign-on button shows'],
] as const)('with nothing usable, %s is %j: %s', (field, fallback, _why) => {
  expect(FALLBACK[field]).toEqual(fallback)
})

const rows = [
  { name: 'nothing', raw: null },
  { name: 'not an object', raw: 'x' },
  {
    name: 'wrong types fall back field by field',
    raw: {
      apiBase: 3,
      environment: '',
      sentryDsn: false,
      recorder: { projectKey: 'k' },
      mock: 'yes',
      toasts: 'bottom',
      externalSignIn: 'no',
    },
  },
] as const

test.each(rows)('parse: $name gives the fallbacks', ({ raw }) => {
  expect(parseRuntimeConfig(raw)).toEqual(FALLBACK)
})

test('parse: every field, as given (apiBase without its trailing slash)', () => {
  expect(
    parseRuntimeConfig({
      apiBase: 'https://api.example/',
      environment: 'staging',
      sentryDsn: 'https://key@sentry.example/1',
      recorder: { projectKey: 'k', host: 'https://rec.example' },
      mock: true,
      toasts: 'top-right-queue',
      externalSignIn: false,
    }),
  ).toEqual({
    apiBase: 'https://api.example',
    environment: 'staging',
    sentryDsn: 'https://key@sentry.example/1',
    recorder: { projectKey: 'k', host: 'https://rec.example' },
    mock: true,
    toasts: 'top-right-queue',
    externalSignIn: false,
  })
})

test.each([
  [false, false],
  [true, true],
  [undefined, true],
  ['false', true],
  [0, true],
] as const)(
  'externalSignIn %j reads as %j: only an explicit false hides single sign-on',
  (value, expected) => {
    expect(parseRuntimeConfig({ externalSignIn: value }).externalSignIn).toBe(expected)
  },
)

test('fields the app does not read, such as the server’s tokenLifetimes, are passed over without a word', () => {
  const warn = vi.spyOn(console, 'warn')
  const error = vi.spyOn(console, 'error')
  const served = { environment: 'qa', mock: true, externalSignIn: false }
  expect(
    parseRuntimeConfig({ ...served, tokenLifetimes: { accessSeconds: 30, refreshSeconds: 86_400 } }),
  ).toEqual(parseRuntimeConfig(served))
  expect(warn).not.toHaveBeenCalled()
  expect(error).not.toHaveBeenCalled()
  warn.mockRestore()
  error.mockRestore()
})

test('loads config.json once with the fallbacks on failure', async () => {
  const ok = createRecordingFetch(() => json(200, { environment: 'qa', mock: true }))
  expect(await loadRuntimeConfig(ok.fetch, 'http://app.test/config.json')).toEqual({
    ...FALLBACK,
    environment: 'qa',
    mock: true,
  })
  expect(ok.calls.map((c) => c.path)).toEqual(['/config.json'])
  const missing = createRecordingFetch(() => new Response('not found', { status: 404 }))
  expect(await loadRuntimeConfig(missing.fetch, 'http://app.test/config.json')).toEqual(FALLBACK)
  const broken = createRecordingFetch(() => new Response('{', { status: 200 }))
  expect(await loadRuntimeConfig(broken.fetch, 'http://app.test/config.json')).toEqual(FALLBACK)
})

test("the mock server's placeholders are filled from the page's own address, never from the request", async () => {
  const raw = {
    sentryDsn: '{protocol}//mock@{host}/1',
    recorder: { projectKey: 'mock-project', host: '{origin}' },
  }
  const served = createRecordingFetch(() => json(200, raw))
  expect(await loadRuntimeConfig(served.fetch, 'http://127.0.0.1:4010/config.json')).toMatchObject({
    sentryDsn: 'http://mock@127.0.0.1:4010/1',
    recorder: { projectKey: 'mock-project', host: 'http://127.0.0.1:4010' },
  })
})

describe('the configuration the page carries (the mock server writes it in)', () => {
  const page = (text: string | null) => ({
    getElementById: (id: string) =>
      id === INLINE_CONFIG_ID && text !== null ? ({ textContent: text } as HTMLElement) : null,
  })

  test('read as config.json is, placeholders and all', () => {
    const json = JSON.stringify({ apiBase: '', mock: true, sentryDsn: '{protocol}//mock@{host}/1' })
    expect(readInlineRuntimeConfig(page(json), 'http://app.test:8080')).toEqual(
      parseRuntimeConfig(JSON.parse(json), 'http://app.test:8080'),
    )
  })

  test('none, an empty one or one that is not JSON: null, and the app fetches config.json', () => {
    for (const text of [null, '', '{"mock": tru'])
      expect(readInlineRuntimeConfig(page(text), 'http://app.test')).toBeNull()
  })
})
