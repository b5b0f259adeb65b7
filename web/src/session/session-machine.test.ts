// The session machine's rules, one transition at a time (the races, answer against ending, are in
// session-races.test.ts).
import { describe, expect, test } from 'vitest'
import type { ErrorBody } from '../api/error-messages.ts'
import {
  initialSessionState,
  transition,
  type SessionEffect,
  type SessionEvent,
  type SessionState,
  type Stored,
} from './session-machine.ts'

const NOW = 1_000
const user = { id: 'u1', email: 'ada@example.com', name: 'Ada' }
const pair = { accessToken: 'a1', refreshToken: 'r1' }
const held: Stored = { accessToken: 'a0', refreshToken: 'r0' }
const none: Stored = { accessToken: null, refreshToken: null }
const signedIn: SessionState = {
  ...initialSessionState,
  generation: 1,
  ready: true,
  user,
  hasTokens: true,
  timerRunning: true,
}
const flight = { id: 7, refreshToken: 'r0', waiters: [] as number[] }
const refreshing: SessionState = { ...signedIn, refresh: flight, nextFlight: 8 }
const waitedFor: SessionState = { ...signedIn, refresh: { ...flight, waiters: [3, 4] }, nextFlight: 8 }

const ended = (message: string | null): SessionEffect[] => [
  { type: 'clearTokens' },
  { type: 'stopTimer' },
  ...(message === null
    ? []
    : [{ type: 'notify', kind: 'error', message } as const, { type: 'navigate', to: '/login' } as const]),
]
const unauthorized = (body: ErrorBody | null, generation = 1, token = 'a0') =>
  ({ type: 'UNAUTHORIZED', call: 9, sent: { generation, token }, body, stored: held }) as const

const rows: readonly { name: string; from: SessionState; event: SessionEvent; effects: SessionEffect[] }[] = [
  {
    name: 'start without tokens: fetch the session only',
    from: initialSessionState,
    event: { type: 'STARTED', stored: none },
    effects: [{ type: 'fetchSession', generation: 0 }],
  },
  {
    name: 'start with only an access token: as without tokens',
    from: initialSessionState,
    event: { type: 'STARTED', stored: { accessToken: 'a0', refreshToken: null } },
    effects: [{ type: 'fetchSession', generation: 0 }],
  },
  {
    name: 'start with tokens: fetch the session, start the 300 s timer, refresh once (under the lock)',
    from: initialSessionState,
    event: { type: 'STARTED', stored: held },
    effects: [
      { type: 'fetchSession', generation: 0 },
      { type: 'startTimer', intervalMs: 300_000 },
      { type: 'acquireLock', flight: 1 },
    ],
  },
  {
    name: 'sign-in asked for in this generation: store, (re)start the timer, go to the redirect',
    from: { ...initialSessionState, ready: true },
    event: {
      type: 'SIGNED_IN',
      generation: 0,
      user,
      tokens: { ...pair, serviceToken: 's1' },
      redirect: '/help',
    },
    effects: [
      { type: 'storeTokens', tokens: { ...pair, serviceToken: 's1' } },
      { type: 'startTimer', intervalMs: 300_000 },
      { type: 'navigate', to: '/help', replace: true },
    ],
  },
  {
    name: 'sign-in while a refresh of the previous session waits: its callers give up',
    from: waitedFor,
    event: { type: 'SIGNED_IN', generation: 1, user, tokens: pair, redirect: '/' },
    effects: [
      { type: 'resume', calls: [3, 4], accessToken: null },
      { type: 'storeTokens', tokens: pair },
      { type: 'startTimer', intervalMs: 300_000 },
      { type: 'navigate', to: '/', replace: true },
    ],
  },
  {
    name: 'a sign-in answer asked for in an ended generation is dropped whole',
    from: { ...initialSessionState, generation: 2, ready: true },
    event: { type: 'SIGNED_IN', generation: 1, user, tokens: pair, redirect: '/' },
    effects: [],
  },
  {
    name: 'the session answer of this generation with a user',
    from: { ...initialSessionState, hasTokens: true },
    event: { type: 'SESSION_LOADED', generation: 0, user },
    effects: [],
  },
  {
    name: 'the session answer saying signed out ends what the tab held, quietly',
    from: { ...signedIn, user: null },
    event: { type: 'SESSION_LOADED', generation: 1, user: null },
    effects: ended(null),
  },
  {
    name: 'the session answer of an ended generation is dropped',
    from: signedIn,
    event: { type: 'SESSION_LOADED', generation: 0, user: null },
    effects: [],
  },
  {
    name: 'a refresh asked for with a refresh token takes the lock first',
    from: signedIn,
    event: { type: 'REFRESH_REQUESTED', call: 3, stored: held },
    effects: [{ type: 'acquireLock', flight: 1 }],
  },
  {
    name: 'a refresh asked for while one runs joins it (single flight)',
    from: refreshing,
    event: { type: 'REFRESH_REQUESTED', call: 3, stored: held },
    effects: [],
  },
  {
    name: 'a refresh asked for without a refresh token logs and sends nothing',
    from: signedIn,
    event: { type: 'REFRESH_REQUESTED', call: 3, stored: { accessToken: 'a0', refreshToken: null } },
    effects: [
      { type: 'log', message: 'No refresh token available' },
      { type: 'resume', calls: [3], accessToken: null },
    ],
  },
  {
    name: 'the lock granted: send the refresh token the flight started with',
    from: refreshing,
    event: { type: 'LOCK_GRANTED', flight: 7, stored: held },
    effects: [{ type: 'sendRefresh', flight: 7, refreshToken: 'r0' }],
  },
  {
    name: 'the lock granted after another tab rotated our token: take its pair, send nothing',
    from: waitedFor,
    event: { type: 'LOCK_GRANTED', flight: 7, stored: pair },
    effects: [
      { type: 'storeTokens', tokens: pair },
      { type: 'resume', calls: [3, 4], accessToken: 'a1' },
      { type: 'releaseLock', flight: 7 },
    ],
  },
  {
    name: 'the lock granted with the tokens gone meanwhile: a failed refresh',
    from: waitedFor,
    event: { type: 'LOCK_GRANTED', flight: 7, stored: { accessToken: 'a0', refreshToken: null } },
    effects: [
      { type: 'releaseLock', flight: 7 },
      { type: 'clearTokens' },
      { type: 'stopTimer' },
      { type: 'resume', calls: [3, 4], accessToken: null },
      { type: 'notify', kind: 'error', message: 'Session expired. Please login again.' },
      { type: 'navigate', to: '/login' },
    ],
  },
  {
    name: 'the lock granted to a flight of an ended session: let it go, send nothing',
    from: signedIn,
    event: { type: 'LOCK_GRANTED', flight: 7, stored: held },
    effects: [{ type: 'releaseLock', flight: 7 }],
  },
  {
    name: 'a tick with tokens refreshes',
    from: signedIn,
    event: { type: 'TIMER_TICKED', stored: held },
    effects: [{ type: 'acquireLock', flight: 1 }],
  },
  {
    name: 'a tick while a refresh runs joins it',
    from: refreshing,
    event: { type: 'TIMER_TICKED', stored: held },
    effects: [],
  },
  {
    name: 'a tick without tokens stops the timer',
    from: signedIn,
    event: { type: 'TIMER_TICKED', stored: { accessToken: 'a0', refreshToken: null } },
    effects: [{ type: 'stopTimer' }],
  },
  {
    name: 'the refresh answered with a pair: store, resume the callers, announce, let go of the lock',
    from: waitedFor,
    event: { type: 'REFRESH_ANSWERED', flight: 7, tokens: pair },
    effects: [
      { type: 'storeTokens', tokens: pair },
      { type: 'resume', calls: [3, 4], accessToken: 'a1' },
      { type: 'announceRotation', retiredRefreshToken: 'r0', tokens: pair },
      { type: 'releaseLock', flight: 7 },
    ],
  },
  {
    name: 'a refresh that succeeds with the timer stopped starts it',
    from: { ...refreshing, timerRunning: false },
    event: { type: 'REFRESH_ANSWERED', flight: 7, tokens: pair },
    effects: [
      { type: 'storeTokens', tokens: pair },
      { type: 'startTimer', intervalMs: 300_000 },
      { type: 'announceRotation', retiredRefreshToken: 'r0', tokens: pair },
      { type: 'releaseLock', flight: 7 },
    ],
  },
  {
    name: 'the refresh failed: clear, stop, toast, /login; the callers give up',
    from: waitedFor,
    event: { type: 'REFRESH_ANSWERED', flight: 7, tokens: null },
    effects: [
      { type: 'releaseLock', flight: 7 },
      { type: 'clearTokens' },
      { type: 'stopTimer' },
      { type: 'resume', calls: [3, 4], accessToken: null },
      { type: 'notify', kind: 'error', message: 'Session expired. Please login again.' },
      { type: 'navigate', to: '/login' },
    ],
  },
  {
    name: 'a late refresh answer of an ended session: only its lock is let go',
    from: signedIn,
    event: { type: 'REFRESH_ANSWERED', flight: 7, tokens: pair },
    effects: [{ type: 'releaseLock', flight: 7 }],
  },
  {
    name: 'a late refresh answer of an earlier flight, a newer one running: only its lock is let go',
    from: { ...refreshing, refresh: { ...flight, id: 8 } },
    event: { type: 'REFRESH_ANSWERED', flight: 7, tokens: null },
    effects: [{ type: 'releaseLock', flight: 7 }],
  },
  {
    name: '401 token_expired: a refresh for this call',
    from: signedIn,
    event: unauthorized({ error: 'token_expired', message: 'x' }),
    effects: [{ type: 'acquireLock', flight: 1 }],
  },
  {
    name: '401 without a code: a refresh for this call',
    from: signedIn,
    event: unauthorized({ message: 'x' }),
    effects: [{ type: 'acquireLock', flight: 1 }],
  },
  {
    name: '401 without a body: a refresh for this call',
    from: signedIn,
    event: unauthorized(null),
    effects: [{ type: 'acquireLock', flight: 1 }],
  },
  {
    name: '401 token_expired while a refresh runs: wait for it',
    from: refreshing,
    event: unauthorized({ error: 'token_expired' }),
    effects: [],
  },
  {
    name: '401 token_expired of a call sent before the tokens rotated: retry with the current one, no refresh',
    from: signedIn,
    event: { ...unauthorized({ error: 'token_expired' }), stored: pair },
    effects: [{ type: 'resume', calls: [9], accessToken: 'a1' }],
  },
  {
    name: '401 token_expired without a refresh token: log, and end like a failed refresh',
    from: signedIn,
    event: { ...unauthorized({ error: 'token_expired' }), stored: { accessToken: 'a0', refreshToken: null } },
    effects: [
      { type: 'log', message: 'No refresh token available' },
      { type: 'resume', calls: [9], accessToken: null },
      ...ended('Session expired. Please login again.'),
    ],
  },
  {
    name: '401 token_invalid ends at once',
    from: signedIn,
    event: unauthorized({ error: 'token_invalid', message: 'ignored' }),
    effects: [
      { type: 'resume', calls: [9], accessToken: null },
      ...ended('Invalid authentication. Please login again.'),
    ],
  },
  {
    name: '401 with another code ends at once with the server message',
    from: signedIn,
    event: unauthorized({ error: 'access_denied', message: 'Your account has been suspended.' }),
    effects: [
      { type: 'resume', calls: [9], accessToken: null },
      ...ended('Your account has been suspended.'),
    ],
  },
  {
    name: '401 with another code and no message',
    from: signedIn,
    event: unauthorized({ error: 'access_denied' }),
    effects: [
      { type: 'resume', calls: [9], accessToken: null },
      ...ended('Authentication failed. Please login again.'),
    ],
  },
  {
    name: '401 of a call sent in an ended generation: the call gives up, nothing else',
    from: signedIn,
    event: unauthorized({ error: 'access_denied', message: 'late' }, 0),
    effects: [{ type: 'resume', calls: [9], accessToken: null }],
  },
  {
    name: 'the retried call answered 401 token_expired',
    from: signedIn,
    event: { type: 'RETRY_ANSWERED', generation: 1, status: 401, body: { error: 'token_expired' } },
    effects: ended('Your session has expired. Please login again.'),
  },
  {
    name: 'the retried call answered 401 token_invalid',
    from: signedIn,
    event: { type: 'RETRY_ANSWERED', generation: 1, status: 401, body: { error: 'token_invalid' } },
    effects: ended('Invalid authentication. Please login again.'),
  },
  {
    name: 'the retried call answered 401 without a code',
    from: signedIn,
    event: { type: 'RETRY_ANSWERED', generation: 1, status: 401, body: {} },
    effects: ended('Authentication failed. Please login again.'),
  },
  {
    name: 'the retried call answered 200',
    from: signedIn,
    event: { type: 'RETRY_ANSWERED', generation: 1, status: 200, body: null },
    effects: [],
  },
  {
    name: 'the retried call of an ended generation answered 401: nothing more',
    from: signedIn,
    event: { type: 'RETRY_ANSWERED', generation: 0, status: 401, body: { error: 'token_invalid' } },
    effects: [],
  },
  {
    name: 'another tab rotated the token we hold: take the pair',
    from: signedIn,
    event: {
      type: 'ROTATION_HEARD',
      tokens: pair,
      retired: 'h(r0)',
      held: { token: 'r0', digest: 'h(r0)' },
      stored: held,
    },
    effects: [{ type: 'storeTokens', tokens: pair }],
  },
  {
    name: 'a rotation heard with the timer stopped starts it',
    from: { ...signedIn, timerRunning: false },
    event: {
      type: 'ROTATION_HEARD',
      tokens: pair,
      retired: 'h(r0)',
      held: { token: 'r0', digest: 'h(r0)' },
      stored: held,
    },
    effects: [
      { type: 'storeTokens', tokens: pair },
      { type: 'startTimer', intervalMs: 300_000 },
    ],
  },
  {
    name: 'a rotation of another token (a tab signed in separately): ignored',
    from: signedIn,
    event: {
      type: 'ROTATION_HEARD',
      tokens: pair,
      retired: 'h(rX)',
      held: { token: 'r0', digest: 'h(r0)' },
      stored: held,
    },
    effects: [],
  },
  {
    name: 'a rotation heard for a token this tab no longer holds (changed while hashing): ignored',
    from: signedIn,
    event: {
      type: 'ROTATION_HEARD',
      tokens: pair,
      retired: 'h(r0)',
      held: { token: 'r0', digest: 'h(r0)' },
      stored: { accessToken: 'a5', refreshToken: 'r5' },
    },
    effects: [],
  },
  {
    name: 'a rotation heard after the session ended: ignored',
    from: { ...signedIn, user: null, hasTokens: false },
    event: {
      type: 'ROTATION_HEARD',
      tokens: pair,
      retired: 'h(r0)',
      held: { token: 'r0', digest: 'h(r0)' },
      stored: none,
    },
    effects: [],
  },
  {
    name: 'a rotation heard during our own log-out: ignored',
    from: { ...signedIn, user: null, hasTokens: false, loggingOut: true },
    event: {
      type: 'ROTATION_HEARD',
      tokens: pair,
      retired: 'h(r0)',
      held: { token: 'r0', digest: 'h(r0)' },
      stored: held,
    },
    effects: [],
  },
  {
    name: 'our own rotation echoed back: nothing to take',
    from: signedIn,
    event: {
      type: 'ROTATION_HEARD',
      tokens: pair,
      retired: 'h(r1)',
      held: { token: 'r1', digest: 'h(r1)' },
      stored: pair,
    },
    effects: [],
  },
  {
    name: 'log-out: announce it to the other tabs and end the server session, with the bearer token',
    from: waitedFor,
    event: { type: 'LOGOUT_REQUESTED', stored: held },
    effects: [
      { type: 'resume', calls: [3, 4], accessToken: null },
      { type: 'stopTimer' },
      { type: 'announceLogout' },
      { type: 'deleteSession', generation: 2, accessToken: 'a0' },
    ],
  },
  {
    name: 'a second log-out while one runs joins it',
    from: { ...signedIn, loggingOut: true },
    event: { type: 'LOGOUT_REQUESTED', stored: held },
    effects: [],
  },
  {
    name: 'the server ended its side: clear the tokens, go to /login, no toast',
    from: { ...signedIn, generation: 2, user: null, hasTokens: false, loggingOut: true },
    event: { type: 'LOGOUT_ANSWERED', generation: 2 },
    effects: [{ type: 'clearTokens' }, { type: 'navigate', to: '/login' }],
  },
  {
    name: 'the log-out answered after a new sign-in: the new session stays',
    from: { ...signedIn, generation: 3 },
    event: { type: 'LOGOUT_ANSWERED', generation: 2 },
    effects: [],
  },
  {
    name: 'a log-out in another tab ends this session quietly',
    from: waitedFor,
    event: { type: 'LOGGED_OUT_ELSEWHERE' },
    effects: [
      { type: 'clearTokens' },
      { type: 'stopTimer' },
      { type: 'resume', calls: [3, 4], accessToken: null },
    ],
  },
  {
    name: 'a log-out in another tab, this tab signed out: nothing',
    from: { ...initialSessionState, ready: true },
    event: { type: 'LOGGED_OUT_ELSEWHERE' },
    effects: [],
  },
  {
    name: 'password changed signed in: toast, home',
    from: signedIn,
    event: { type: 'PASSWORD_UPDATED', generation: 1, via: 'signed-in' },
    effects: [
      { type: 'notify', kind: 'success', message: 'Your password has been changed.' },
      { type: 'navigate', to: '/' },
    ],
  },
  {
    name: 'password reset, signed out: toast, /login',
    from: { ...initialSessionState, ready: true },
    event: { type: 'PASSWORD_UPDATED', generation: 0, via: 'reset' },
    effects: [
      { type: 'notify', kind: 'success', message: 'Your password has been changed. Please sign in with it.' },
      { type: 'navigate', to: '/login' },
    ],
  },
  {
    name: "password reset with a session in this tab: it ends too (the reset ends all the account's sessions)",
    from: signedIn,
    event: { type: 'PASSWORD_UPDATED', generation: 1, via: 'reset' },
    effects: [
      ...ended(null),
      { type: 'notify', kind: 'success', message: 'Your password has been changed. Please sign in with it.' },
      { type: 'navigate', to: '/login' },
    ],
  },
  {
    name: 'a password answer of an ended generation is dropped',
    from: signedIn,
    event: { type: 'PASSWORD_UPDATED', generation: 0, via: 'signed-in' },
    effects: [],
  },
]

const moreRows: readonly {
  name: string
  from: SessionState
  event: SessionEvent
  effects: SessionEffect[]
}[] = [
  {
    name: 'start with only a refresh token: as without tokens',
    from: initialSessionState,
    event: { type: 'STARTED', stored: { accessToken: null, refreshToken: 'r0' } },
    effects: [{ type: 'fetchSession', generation: 0 }],
  },
  {
    name: 'a forced sign-out with no timer running stops none',
    from: { ...signedIn, timerRunning: false },
    event: unauthorized({ error: 'token_invalid' }),
    effects: [
      { type: 'resume', calls: [9], accessToken: null },
      { type: 'clearTokens' },
      { type: 'notify', kind: 'error', message: 'Invalid authentication. Please login again.' },
      { type: 'navigate', to: '/login' },
    ],
  },
  {
    name: 'a forced sign-out of a tab that never started stops no timer',
    from: initialSessionState,
    event: unauthorized({ error: 'token_invalid' }, 0),
    effects: [
      { type: 'resume', calls: [9], accessToken: null },
      { type: 'clearTokens' },
      { type: 'notify', kind: 'error', message: 'Invalid authentication. Please login again.' },
      { type: 'navigate', to: '/login' },
    ],
  },
  {
    name: 'a log-out elsewhere ends a tab with only the cookie user (no tokens)',
    from: { ...signedIn, hasTokens: false, timerRunning: false },
    event: { type: 'LOGGED_OUT_ELSEWHERE' },
    effects: [{ type: 'clearTokens' }],
  },
  {
    name: 'a log-out elsewhere ends a tab whose only session is a refresh in flight',
    from: { ...waitedFor, user: null, hasTokens: false, timerRunning: false },
    event: { type: 'LOGGED_OUT_ELSEWHERE' },
    effects: [{ type: 'clearTokens' }, { type: 'resume', calls: [3, 4], accessToken: null }],
  },
  {
    name: '401 token_expired while a refresh runs, the tokens rotated since: still wait for the refresh',
    from: refreshing,
    event: { ...unauthorized({ error: 'token_expired' }), stored: pair },
    effects: [],
  },
  {
    name: '401 token_expired with the access token gone but a refresh token: a refresh',
    from: signedIn,
    event: { ...unauthorized({ error: 'token_expired' }), stored: { accessToken: null, refreshToken: 'r0' } },
    effects: [{ type: 'acquireLock', flight: 1 }],
  },
  {
    name: 'log-out with nothing in flight and no timer: announce and ask the server, nothing else',
    from: { ...signedIn, timerRunning: false },
    event: { type: 'LOGOUT_REQUESTED', stored: held },
    effects: [{ type: 'announceLogout' }, { type: 'deleteSession', generation: 2, accessToken: 'a0' }],
  },
]

describe('session machine: effects of each event', () => {
  test.each(moreRows)('$name', ({ from, event, effects }) => {
    expect(transition(from, event, NOW).effects).toEqual(effects)
  })

  test.each(rows)('$name', ({ from, event, effects }) => {
    expect(transition(from, event, NOW).effects).toEqual(effects)
  })
})

const states: readonly {
  name: string
  from: SessionState
  event: SessionEvent
  expect: Partial<SessionState>
}[] = [
  {
    name: 'the first session answer makes it ready, with its user',
    from: initialSessionState,
    event: { type: 'SESSION_LOADED', generation: 0, user },
    expect: { ready: true, user, generation: 0 },
  },
  {
    name: 'an empty session answer, nothing held: ready, no new generation',
    from: initialSessionState,
    event: { type: 'SESSION_LOADED', generation: 0, user: null },
    expect: { ready: true, user: null, generation: 0, signedOut: false },
  },
  {
    name: 'an empty session answer with tokens held: ended, a new generation, not "signed out" (plain guard)',
    from: { ...initialSessionState, hasTokens: true, timerRunning: true },
    event: { type: 'SESSION_LOADED', generation: 0, user: null },
    expect: { ready: true, hasTokens: false, timerRunning: false, generation: 1, signedOut: false },
  },
  {
    name: 'start with tokens: tokens held, the timer and a flight running',
    from: initialSessionState,
    event: { type: 'STARTED', stored: held },
    expect: {
      hasTokens: true,
      timerRunning: true,
      refresh: { id: 1, refreshToken: 'r0', waiters: [] },
      nextFlight: 2,
    },
  },
  {
    name: 'start without tokens: none held',
    from: { ...initialSessionState, hasTokens: true },
    event: { type: 'STARTED', stored: none },
    expect: { hasTokens: false, refresh: null },
  },
  {
    name: 'a sign-in begins the next generation, signed in',
    from: { ...refreshing, signedOut: true, loggingOut: true, lastRefreshAt: 5 },
    event: { type: 'SIGNED_IN', generation: 1, user, tokens: pair, redirect: '/' },
    expect: {
      generation: 2,
      ready: true,
      user,
      hasTokens: true,
      timerRunning: true,
      refresh: null,
      signedOut: false,
      loggingOut: false,
      lastRefreshAt: null,
    },
  },
  {
    name: 'a 401 joining a flight is added to its waiters',
    from: waitedFor,
    event: unauthorized({ error: 'token_expired' }),
    expect: { refresh: { ...flight, waiters: [3, 4, 9] } },
  },
  {
    name: 'a refresh success ends the flight and records the time',
    from: refreshing,
    event: { type: 'REFRESH_ANSWERED', flight: 7, tokens: pair },
    expect: { refresh: null, hasTokens: true, timerRunning: true, lastRefreshAt: NOW, generation: 1 },
  },
  {
    name: 'a lock granted after another tab rotated: the flight ends, the time recorded',
    from: refreshing,
    event: { type: 'LOCK_GRANTED', flight: 7, stored: pair },
    expect: { refresh: null, lastRefreshAt: NOW },
  },
  {
    name: 'a refresh failure ends the session into the next generation',
    from: refreshing,
    event: { type: 'REFRESH_ANSWERED', flight: 7, tokens: null },
    expect: {
      generation: 2,
      refresh: null,
      user: null,
      hasTokens: false,
      timerRunning: false,
      signedOut: true,
      ready: true,
    },
  },
  {
    name: 'a forced sign-out ends the session into the next generation',
    from: signedIn,
    event: unauthorized({ error: 'token_invalid' }),
    expect: { generation: 2, user: null, hasTokens: false, timerRunning: false, signedOut: true },
  },
  {
    name: 'a tick without tokens marks the timer stopped',
    from: signedIn,
    event: { type: 'TIMER_TICKED', stored: none },
    expect: { timerRunning: false },
  },
  {
    name: 'a rotation heard: tokens held, the time recorded',
    from: { ...signedIn, hasTokens: false, timerRunning: false },
    event: {
      type: 'ROTATION_HEARD',
      tokens: pair,
      retired: 'h',
      held: { token: 'r0', digest: 'h' },
      stored: held,
    },
    expect: { hasTokens: true, timerRunning: true, lastRefreshAt: NOW },
  },
  {
    name: 'log-out requested: the next generation at once, logging out',
    from: refreshing,
    event: { type: 'LOGOUT_REQUESTED', stored: held },
    expect: {
      generation: 2,
      user: null,
      hasTokens: false,
      refresh: null,
      timerRunning: false,
      loggingOut: true,
      signedOut: true,
    },
  },
  {
    name: 'log-out answered: no longer logging out',
    from: { ...signedIn, generation: 2, user: null, loggingOut: true },
    event: { type: 'LOGOUT_ANSWERED', generation: 2 },
    expect: { loggingOut: false, generation: 2 },
  },
  {
    name: 'a log-out elsewhere: the next generation, signed out',
    from: signedIn,
    event: { type: 'LOGGED_OUT_ELSEWHERE' },
    expect: { generation: 2, user: null, hasTokens: false, signedOut: true, ready: true },
  },
  {
    name: 'a reset with a session here: the next generation, not "signed out"',
    from: signedIn,
    event: { type: 'PASSWORD_UPDATED', generation: 1, via: 'reset' },
    expect: { generation: 2, user: null, hasTokens: false, signedOut: false },
  },
  {
    name: 'a 401 joining a flight after the tokens rotated is added to its waiters',
    from: refreshing,
    event: { ...unauthorized({ error: 'token_expired' }), stored: pair },
    expect: { refresh: { ...flight, waiters: [9] } },
  },
  {
    name: 'log-out before the first session answer: ready (signed out)',
    from: initialSessionState,
    event: { type: 'LOGOUT_REQUESTED', stored: none },
    expect: { ready: true, loggingOut: true, generation: 1 },
  },
  {
    name: 'a reset signed out: ready, same generation',
    from: initialSessionState,
    event: { type: 'PASSWORD_UPDATED', generation: 0, via: 'reset' },
    expect: { generation: 0, ready: true },
  },
]

describe('session machine: state after each event', () => {
  test.each(states)('$name', ({ from, event, expect: expected }) => {
    expect(transition(from, event, NOW).state).toMatchObject(expected)
  })

  test.each([
    {
      name: 'a stale session answer',
      from: signedIn,
      event: { type: 'SESSION_LOADED', generation: 0, user: null },
    },
    {
      name: 'a retried call answered 200',
      from: signedIn,
      event: { type: 'RETRY_ANSWERED', generation: 1, status: 200, body: null },
    },
    {
      name: 'a log-out elsewhere, signed out',
      from: initialSessionState,
      event: { type: 'LOGGED_OUT_ELSEWHERE' },
    },
    {
      name: 'a start without tokens, none held',
      from: initialSessionState,
      event: { type: 'STARTED', stored: none },
    },
    {
      name: 'a late refresh answer',
      from: signedIn,
      event: { type: 'REFRESH_ANSWERED', flight: 7, tokens: pair },
    },
  ] as const)('$name keeps the very same state object (no needless re-render)', ({ from, event }) => {
    expect(transition(from, event, NOW).state).toBe(from)
  })
})
