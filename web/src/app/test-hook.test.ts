import { expect, test } from 'vitest'
import { createApiClient } from '../api/client.ts'
import { DEFAULT_RUNTIME_CONFIG, parseRuntimeConfig } from '../lib/config/runtime-config.ts'
import type { SessionStore } from '../session/session-store.ts'
import { installTestHook, type AuthShellTestHook } from './test-hook.ts'

const session = { getGeneration: () => 0 } as SessionStore
const api = createApiClient({
  fetch: () => Promise.reject(new Error('Failed to send: no network in this test.')),
  session,
})

test.each([
  ['the fallback configuration', DEFAULT_RUNTIME_CONFIG],
  ['a production config.json (mock: false)', parseRuntimeConfig({ mock: false })],
  ['a config.json without mock', parseRuntimeConfig({ apiBase: '/api' })],
  ['a config.json whose mock is not the boolean true', parseRuntimeConfig({ mock: 'true' })],
])('outside mock mode there is no test hook: %s', (_name, config) => {
  const page: { __authShell?: AuthShellTestHook } = {}
  installTestHook(page, config, { api, session })
  expect(page).not.toHaveProperty('__authShell')
})

test('in mock mode the hook holds the app client and session store, and cannot be swapped', () => {
  const page: { __authShell?: AuthShellTestHook } = {}
  installTestHook(page, parseRuntimeConfig({ mock: true }), { api, session })
  expect(page.__authShell?.api).toBe(api)
  expect(page.__authShell?.session).toBe(session)
  expect(Object.isFrozen(page.__authShell)).toBe(true)
})
