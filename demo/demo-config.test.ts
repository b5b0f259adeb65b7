// The demo's config.json, read as the app reads it: the QA panel on, the API here, no external sign-in, nothing
// reported anywhere.
import { expect, test } from 'vitest'
import { parseRuntimeConfig } from '#web/lib/config/runtime-config.ts'
import { demoConfigJson } from './demo-config.ts'
import { workerUrl } from './start-worker.ts'

test('the app reads the demo config as mock mode, same origin, with no sign-on and no reporting', () => {
  const config = parseRuntimeConfig(JSON.parse(demoConfigJson()), 'https://demo.example')
  expect(config).toMatchObject({
    apiBase: '',
    mock: true,
    externalSignIn: false,
    sentryDsn: null,
    recorder: null,
  })
})

test("the worker's script is at the build's base, whatever the base's spelling", () => {
  expect(workerUrl('/')).toBe('/mockServiceWorker.js')
  expect(workerUrl('/demo')).toBe('/demo/mockServiceWorker.js')
  expect(workerUrl('/demo/')).toBe('/demo/mockServiceWorker.js')
})
