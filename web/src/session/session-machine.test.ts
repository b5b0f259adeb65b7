import { describe, expect, test } from 'vitest'
import { initialSessionState, transition, type SessionEvent, type SessionState } from './session-machine.ts'

const NOW = 1_000
const user = { id: 'u1', email: 'ada@example.com', name: 'Ada' }
const pair = { accessToken: 'a1', refreshToken: 'r1' }
const signedIn: SessionState = {
  ...initialSessionState,
  ready: true,
  user,
  hasTokens: true,
  timerRunning: true,
}
const refreshing: SessionState = { ...signedIn, refreshing: true }

const signOutEffects = (message: string) => [
  { type: 'clearTokens' },
  { type: 'stopTimer' },
  { type: 'notify', kind: 'error', message },
  { type: 'navigate', to: '/login' },
]

const rows: readonly { name: string; from: SessionState; event: SessionEvent; effects: unknown[] }[] = [
  {
    name: 'start without tokens: fetch the session only',
    from: initialSessionState,
    event: { type: 'STARTED', hasTokens: false, refreshToken: null },
    effects: [{ type: 'fetchSession' }],
  },
  {
    name: 'start with tokens: fetch the session, start the 300 s timer, refresh once',
    from: initialSessionState,
    event: { type: 'STARTED', hasTokens: true, refreshToken: 'r0' },
    effects: [
      { type: 'fetchSession' },
      { type: 'startTimer', intervalMs: 300_000 },
      { type: 'sendRefresh', refreshToken: 'r0' },
    ],
  },
  {
    name: 'sign-in stores the tokens and starts the timer',
    from: { ...initialSessionState, ready: true },
    event: { type: 'SIGNED_IN', user, tokens: { ...pair, serviceToken: 's1' } },
    effects: [
      { type: 'storeTokens', tokens: { ...pair, serviceToken: 's1' } },
      { type: 'startTimer', intervalMs: 300_000 },
    ],
  },
  {
    name: 'sign-in with the timer running does not start a second one',
    from: signedIn,
    event: { type: 'SIGNED_IN', user, tokens: pair },
    effects: [{ type: 'storeTokens', tokens: pair }],
  },
  {
    name: 'a refresh with a refresh token sends it',
    from: signedIn,
    event: { type: 'REFRESH_REQUESTED', reason: 'manual', refreshToken: 'r0' },
    effects: [{ type: 'sendRefresh', refreshToken: 'r0' }],
  },
  {
    name: 'a refresh while one runs joins it (single flight)',
    from: refreshing,
    event: { type: 'REFRESH_REQUESTED', reason: 'unauthorized', refreshToken: 'r0' },
    effects: [],
  },
  {
    name: 'a refresh without a refresh token logs and sends nothing',
    from: signedIn,
    event: { type: 'REFRESH_REQUESTED', reason: 'manual', refreshToken: null },
    effects: [
      { type: 'log', message: 'No refresh token available' },
      { type: 'settleRefresh', accessToken: null, error: 'No refresh token available' },
    ],
  },
  {
    name: 'a 401 needing a refresh without a refresh token logs and ends like a failed refresh',
    from: signedIn,
    event: { type: 'REFRESH_REQUESTED', reason: 'unauthorized', refreshToken: null },
    effects: [
      { type: 'log', message: 'No refresh token available' },
      { type: 'settleRefresh', accessToken: null, error: 'No refresh token available' },
      ...signOutEffects('Session expired. Please login again.'),
    ],
  },
  {
    name: 'a tick with tokens refreshes',
    from: signedIn,
    event: { type: 'TIMER_TICKED', hasTokens: true, refreshToken: 'r0' },
    effects: [{ type: 'sendRefresh', refreshToken: 'r0' }],
  },
  {
    name: 'a tick without tokens stops the timer',
    from: signedIn,
    event: { type: 'TIMER_TICKED', hasTokens: false, refreshToken: null },
    effects: [{ type: 'stopTimer' }],
  },
  {
    name: 'a refresh that succeeded stores, announces and settles',
    from: refreshing,
    event: { type: 'REFRESH_SUCCEEDED', tokens: pair, retiredRefreshToken: 'r0', adopted: false },
    effects: [
      { type: 'storeTokens', tokens: pair },
      { type: 'announceRotation', retiredRefreshToken: 'r0', tokens: pair },
      { type: 'settleRefresh', accessToken: 'a1', error: null },
    ],
  },
  {
    name: 'an adopted rotation is not announced again',
    from: refreshing,
    event: { type: 'REFRESH_SUCCEEDED', tokens: pair, retiredRefreshToken: 'r0', adopted: true },
    effects: [
      { type: 'storeTokens', tokens: pair },
      { type: 'settleRefresh', accessToken: 'a1', error: null },
    ],
  },
  {
    name: 'a failed refresh clears, stops, toasts and goes to /login',
    from: refreshing,
    event: { type: 'REFRESH_FAILED', message: 'Token refresh failed' },
    effects: [
      { type: 'settleRefresh', accessToken: null, error: 'Token refresh failed' },
      ...signOutEffects('Session expired. Please login again.'),
    ],
  },
  {
    name: 'another tab rotated our token: store the new pair',
    from: signedIn,
    event: { type: 'TOKENS_ADOPTED', tokens: pair },
    effects: [{ type: 'storeTokens', tokens: pair }],
  },
  {
    name: 'a 401 token_expired after the retry',
    from: signedIn,
    event: { type: 'UNAUTHORIZED', body: { error: 'token_expired', message: 'ignored' } },
    effects: signOutEffects('Your session has expired. Please login again.'),
  },
  {
    name: 'a 401 token_invalid',
    from: signedIn,
    event: { type: 'UNAUTHORIZED', body: { error: 'token_invalid', message: 'ignored' } },
    effects: signOutEffects('Invalid authentication. Please login again.'),
  },
  {
    name: 'a 401 with another code shows the server message',
    from: signedIn,
    event: { type: 'UNAUTHORIZED', body: { error: 'session_revoked', message: 'Your session was revoked.' } },
    effects: signOutEffects('Your session was revoked.'),
  },
  {
    name: 'a 401 without a message',
    from: signedIn,
    event: { type: 'UNAUTHORIZED', body: { error: 'session_revoked' } },
    effects: signOutEffects('Authentication failed. Please login again.'),
  },
  {
    name: 'a 401 without a body',
    from: signedIn,
    event: { type: 'UNAUTHORIZED', body: null },
    effects: signOutEffects('Authentication failed. Please login again.'),
  },
  {
    name: 'a 401 after the tokens are already gone does nothing more (one toast for many requests)',
    from: { ...signedIn, hasTokens: false, timerRunning: false },
    event: { type: 'UNAUTHORIZED', body: { error: 'token_invalid' } },
    effects: [],
  },
  {
    name: 'logout ends the server session first',
    from: signedIn,
    event: { type: 'LOGOUT_REQUESTED' },
    effects: [{ type: 'deleteSession' }],
  },
  {
    name: 'then clears tokens, stops the timer and goes to /login, without a toast',
    from: signedIn,
    event: { type: 'LOGGED_OUT' },
    effects: [{ type: 'clearTokens' }, { type: 'stopTimer' }, { type: 'navigate', to: '/login' }],
  },
]

describe('session machine (spec 4, 5, 8)', () => {
  test.each(rows)('$name', ({ from, event, effects }) => {
    expect(transition(from, event, NOW).effects).toEqual(effects)
  })

  const states = [
    {
      name: 'first session fetch makes it ready',
      from: initialSessionState,
      event: { type: 'SESSION_LOADED', user },
      expect: { ready: true, user },
    },
    {
      name: 'an empty session is ready without a user',
      from: initialSessionState,
      event: { type: 'SESSION_LOADED', user: null },
      expect: { ready: true, user: null },
    },
    {
      name: 'sign-in sets the user',
      from: initialSessionState,
      event: { type: 'SIGNED_IN', user, tokens: pair },
      expect: { user, hasTokens: true, timerRunning: true, signedOut: false },
    },
    {
      name: 'a refresh marks running',
      from: signedIn,
      event: { type: 'REFRESH_REQUESTED', reason: 'manual', refreshToken: 'r' },
      expect: { refreshing: true },
    },
    {
      name: 'success records the time',
      from: refreshing,
      event: { type: 'REFRESH_SUCCEEDED', tokens: pair, retiredRefreshToken: 'r', adopted: false },
      expect: { refreshing: false, lastRefreshAt: NOW },
    },
    {
      name: 'failure signs out',
      from: refreshing,
      event: { type: 'REFRESH_FAILED', message: 'x' },
      expect: { refreshing: false, user: null, hasTokens: false, timerRunning: false, signedOut: true },
    },
    {
      name: 'logout signs out',
      from: signedIn,
      event: { type: 'LOGGED_OUT' },
      expect: { user: null, hasTokens: false, timerRunning: false, signedOut: true },
    },
  ] as const

  test.each(states)('state: $name', ({ from, event, expect: expected }) => {
    expect(transition(from, event, NOW).state).toMatchObject(expected)
  })

  test('an empty session answer does not undo a sign-in that landed first', () => {
    const afterSignIn = transition(initialSessionState, { type: 'SIGNED_IN', user, tokens: pair }, NOW).state
    expect(transition(afterSignIn, { type: 'SESSION_LOADED', user: null }, NOW).state.user).toEqual(user)
  })
})
