import { describe, expect, test } from 'vitest'
import { createRecordingFetch, json } from '../../test/recording-fetch.ts'
import {
  INLINE_CONFIG_ID,
  loadRuntimeConfig,
  parseRuntimeConfig,
  readInlineRuntimeConfig,
} from './runtime-config.ts'

const defaults = {
  apiBase: '',
  environment: 'development',
  sentryDsn: null,
  recorder: null,
  mock: false,
  toasts: 'top-center',
  externalSignIn: true,
}

const rows = [
  { name: 'nothing', raw: null, config: defaults },
  { name: 'not an object', raw: 'x', config: defaults },
  { name: 'empty object', raw: {}, config: defaults },
  {
    name: 'every field',
    raw: {
      apiBase: 'https://api.example/',
      environment: 'staging',
      sentryDsn: 'https://key@sentry.example/1',
      recorder: { projectKey: 'k', host: 'https://rec.example' },
      mock: true,
      toasts: 'top-right-queue',
      externalSignIn: false,
    },
    config: {
      apiBase: 'https://api.example',
      environment: 'staging',
      sentryDsn: 'https://key@sentry.example/1',
      recorder: { projectKey: 'k', host: 'https://rec.example' },
      mock: true,
      toasts: 'top-right-queue',
      externalSignIn: false,
    },
  },
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
    config: defaults,
  },
] as const

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

test.each(rows)('parse: $name', ({ raw, config }) => {
  expect(parseRuntimeConfig(raw)).toEqual(config)
})

test('loads config.json once with the fallbacks on failure', async () => {
  const ok = createRecordingFetch(() => json(200, { environment: 'qa', mock: true }))
  expect(await loadRuntimeConfig(ok.fetch, 'http://app.test/config.json')).toEqual({
    ...defaults,
    environment: 'qa',
    mock: true,
  })
  expect(ok.calls.map((c) => c.path)).toEqual(['/config.json'])
  const missing = createRecordingFetch(() => new Response('not found', { status: 404 }))
  expect(await loadRuntimeConfig(missing.fetch, 'http://app.test/config.json')).toEqual(defaults)
  const broken = createRecordingFetch(() => new Response('{', { status: 200 }))
  expect(await loadRuntimeConfig(broken.fetch, 'http://app.test/config.json')).toEqual(defaults)
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
