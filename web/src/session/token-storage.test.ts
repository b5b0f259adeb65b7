import { describe, expect, test } from 'vitest'
import { createMemoryStorage, storageEntries } from '../test/memory-storage.ts'
import { createSessionValues, createTokenStorage, getSessionStorage } from './token-storage.ts'

describe('token storage (docs/behaviour.md: Stored state, Session, Constants)', () => {
  test('stores the pair under accessToken, refreshToken and serviceToken', () => {
    const storage = createMemoryStorage()
    createTokenStorage(storage).setTokens({ accessToken: 'a', refreshToken: 'r', serviceToken: 's' })
    expect(storageEntries(storage)).toEqual({ accessToken: 'a', refreshToken: 'r', serviceToken: 's' })
  })

  const presence = [
    { stored: {}, present: false },
    { stored: { accessToken: 'a' }, present: false },
    { stored: { refreshToken: 'r' }, present: false },
    { stored: { serviceToken: 's' }, present: false },
    { stored: { accessToken: 'a', serviceToken: 's' }, present: false },
    { stored: { accessToken: '', refreshToken: 'r' }, present: false },
    { stored: { accessToken: 'a', refreshToken: 'r' }, present: true },
    { stored: { accessToken: 'a', refreshToken: 'r', serviceToken: 's' }, present: true },
  ] as const

  test.each(presence)(
    'tokens present only when both are stored: $stored -> $present',
    ({ stored, present }) => {
      const tokens = createTokenStorage(createMemoryStorage(stored))
      expect(tokens.hasTokens()).toBe(present)
      expect(tokens.getTokens() !== null).toBe(present)
    },
  )

  const pairs = [
    {
      stored: { accessToken: 'a', refreshToken: 'r', serviceToken: 's' },
      tokens: { accessToken: 'a', refreshToken: 'r', serviceToken: 's' },
    },
    {
      stored: { accessToken: 'a', refreshToken: 'r' },
      tokens: { accessToken: 'a', refreshToken: 'r', serviceToken: null },
    },
    {
      stored: { accessToken: 'a', refreshToken: 'r', serviceToken: '' },
      tokens: { accessToken: 'a', refreshToken: 'r', serviceToken: null },
    },
  ] as const

  test.each(pairs)('getTokens reads $stored as $tokens', ({ stored, tokens }) => {
    const storage = createTokenStorage(createMemoryStorage(stored))
    expect(storage.getTokens()).toEqual(tokens)
    expect([storage.getAccessToken(), storage.getRefreshToken()]).toEqual([
      tokens.accessToken,
      tokens.refreshToken,
    ])
  })

  test('clear removes all three values and nothing else', () => {
    const storage = createMemoryStorage({
      accessToken: 'a',
      refreshToken: 'r',
      serviceToken: 's',
      other: 'x',
    })
    createTokenStorage(storage).clear()
    expect(storageEntries(storage)).toEqual({ other: 'x' })
  })

  test('a refresh (no service token) keeps the stored service token', () => {
    const storage = createMemoryStorage({ accessToken: 'a', refreshToken: 'r', serviceToken: 's' })
    createTokenStorage(storage).setTokens({ accessToken: 'a2', refreshToken: 'r2' })
    expect(storageEntries(storage)).toEqual({ accessToken: 'a2', refreshToken: 'r2', serviceToken: 's' })
  })

  test('the other per-tab values are JSON under their own keys', () => {
    const storage = createMemoryStorage()
    const values = createSessionValues(storage)
    values.authFlow.set({ email: 'ada@example.com', purpose: 'reset' })
    values.ssoState.set({ state: 'state-1', redirect: '/help' })
    expect(storageEntries(storage)).toEqual({
      authFlow: '{"email":"ada@example.com","purpose":"reset"}',
      ssoState: '{"state":"state-1","redirect":"/help"}',
    })
    expect(values.authFlow.get()).toEqual({ email: 'ada@example.com', purpose: 'reset' })
    storage.setItem('reloadGuard', '{not json')
    expect(values.reloadGuard.get()).toBeNull()
  })

  test('clearing one per-tab value removes its key only', () => {
    const storage = createMemoryStorage({
      authFlow: '{"email":"a@example.com","purpose":"login"}',
      ssoState: '{}',
    })
    const values = createSessionValues(storage)
    values.authFlow.clear()
    expect(values.authFlow.get()).toBeNull()
    expect(storageEntries(storage)).toEqual({ ssoState: '{}' })
  })

  test("the app's storage is the browser's sessionStorage", () => {
    expect(getSessionStorage()).toBe(globalThis.sessionStorage)
  })
})
