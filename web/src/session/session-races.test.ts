// The race matrix on the pure machine. Rows: each way a session ends or survives. Columns: the work in flight
// when it happens, answering before or after the row.
//
// Each cell: sign in (generation g0), start the work, send the row's call, then answer in the cell's order.
// The first ending wins. A g0 answer after an ending is dropped whole (docs/session-life-cycle.md).
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
import type { TokenPair } from './token-storage.ts'

const ADA = { id: 'u1', email: 'ada@example.com', name: 'Ada' }
const FIRST_PAIR = { accessToken: 'a0', refreshToken: 'r0', serviceToken: 's0' }
const NEW_USER = { ...ADA, name: 'Ada again' }

/** Runs the machine the way the store does, with the calls left hanging until a test answers them. */
function createDriver() {
  let state: SessionState = initialSessionState
  let stored: {
    accessToken: string | null
    refreshToken: string | null
    serviceToken?: string | null
  } | null = null
  let rotations = 0
  let nextCall = 1
  /** Every event sent, with the generation before and after it and the effects it gave. */
  const log: { event: SessionEvent; before: number; after: number; effects: SessionEffect[] }[] = []
  const calls: number[] = []
  const refreshes: { flight: number; refreshToken: string }[] = []
  const sessionFetches: number[] = []
  const resumed = new Map<number, string | null>()
  const read = (): Stored => ({
    accessToken: stored?.accessToken ?? null,
    refreshToken: stored?.refreshToken ?? null,
  })

  function send(event: SessionEvent): void {
    const next = transition(state, event, 0)
    log.push({ event, before: state.generation, after: next.state.generation, effects: next.effects })
    state = next.state
    for (const effect of next.effects) carryOut(effect)
  }

  function carryOut(effect: SessionEffect): void {
    switch (effect.type) {
      case 'storeTokens':
        stored = { ...stored, ...effect.tokens }
        return
      case 'clearTokens':
        stored = null
        return
      case 'acquireLock': // this tab's own lock: granted at once (the other tab's rotation is its own column)
        return send({ type: 'LOCK_GRANTED', flight: effect.flight, stored: read() })
      case 'sendRefresh':
        refreshes.push({ flight: effect.flight, refreshToken: effect.refreshToken })
        return
      case 'fetchSession':
        sessionFetches.push(effect.generation)
        return
      case 'resume':
        for (const call of effect.calls) resumed.set(call, effect.accessToken)
        return
      case 'deleteSession':
        return send({ type: 'LOGOUT_ANSWERED', generation: effect.generation })
      default:
        return
    }
  }

  /** The server's next rotation. */
  const rotate = (): TokenPair => (
    (rotations += 1),
    { accessToken: `a${rotations}`, refreshToken: `r${rotations}` }
  )

  return {
    send,
    read,
    rotate,
    log,
    get state() {
      return state
    },
    get stored() {
      return stored
    },
    /** Signed in through the form, as generation g0 begins. */
    signIn() {
      send({ type: 'STARTED', stored: read() })
      send({ type: 'SESSION_LOADED', generation: 0, user: null })
      send({ type: 'SIGNED_IN', generation: 0, user: ADA, tokens: FIRST_PAIR, redirect: '/' })
    },
    /** A reload of the page: the start-up session call and refresh leave. */
    restart() {
      state = initialSessionState
      send({ type: 'STARTED', stored: read() })
    },
    /** The refresh in flight, sent and not yet answered (null when none). */
    pendingRefresh: () => refreshes.find((r) => r.flight === state.refresh?.id) ?? null,
    /** Answers a refresh that was sent (a success rotates on the server). */
    answerRefresh(refresh: { flight: number }, ok: boolean) {
      send({ type: 'REFRESH_ANSWERED', flight: refresh.flight, tokens: ok ? rotate() : null })
    },
    /** A protected call refused with `body`: returns its id; the machine resumes it with a token or null. */
    refuse(sent: { generation: number; token: string }, body: ErrorBody | null): number {
      const call = nextCall++
      calls.push(call)
      send({ type: 'UNAUTHORIZED', call, sent, body, stored: read() })
      return call
    },
    /** The refresh token disappears from storage (devtools, say). */
    dropRefreshToken() {
      if (stored) stored = { ...stored, refreshToken: null }
    },
    resumed,
    calls,
    sessionFetches,
    refreshesSent: () => refreshes.length,
  }
}

type Driver = ReturnType<typeof createDriver>

/** What a cell leaves to check. */
interface Ending {
  toast: string | null
  navigate: boolean
}

const EXPIRED = 'Your session has expired. Please login again.'
const INVALID = 'Invalid authentication. Please login again.'
const AUTH_FAILED = 'Authentication failed. Please login again.'
const REFRESH_FAILED = 'Session expired. Please login again.'
const SUSPENDED = 'Your account has been suspended.'

/**
 * In-flight work: `start` sets it going after sign-in; `answer` delivers its late answer(s). `ending` says what the
 * answer does to the session if it arrives first (null: nothing ends).
 */
interface InFlight {
  name: string
  start(d: Driver): { answer(d: Driver): void }
  ending: Ending | null
}

const IN_FLIGHT: readonly InFlight[] = [
  { name: 'nothing in flight', start: () => ({ answer: () => {} }), ending: null },
  {
    name: 'the start-up refresh and session call in flight',
    start(d) {
      d.restart()
      const refresh = d.pendingRefresh()
      const generation = d.sessionFetches.at(-1) as number
      return {
        answer(d) {
          if (refresh) d.answerRefresh(refresh, true) // a success: the dangerous one
          d.send({ type: 'SESSION_LOADED', generation, user: ADA })
        },
      }
    },
    ending: null,
  },
  {
    name: 'a periodic refresh in flight',
    start(d) {
      d.send({ type: 'TIMER_TICKED', stored: d.read() })
      const refresh = d.pendingRefresh()
      return { answer: (d) => refresh && d.answerRefresh(refresh, true) }
    },
    ending: null,
  },
  {
    name: 'a retried call in flight',
    start(d) {
      const generation = d.state.generation
      const call = d.refuse({ generation, token: d.read().accessToken as string }, { error: 'token_expired' })
      d.answerRefresh(d.pendingRefresh()!, true)
      expect(d.resumed.get(call)).toEqual(expect.any(String)) // retried with the new token
      // the retry is refused too, but late: a second ending must not toast again
      return {
        answer: (d) =>
          d.send({ type: 'RETRY_ANSWERED', generation, status: 401, body: { error: 'token_expired' } }),
      }
    },
    ending: { toast: EXPIRED, navigate: true },
  },
  {
    name: 'another tab rotating our token',
    start(d) {
      const held = d.read().refreshToken as string
      const tokens = d.rotate()
      return {
        answer: (d) =>
          d.send({
            type: 'ROTATION_HEARD',
            tokens,
            retired: `h(${held})`,
            held: { token: held, digest: `h(${held})` },
            stored: d.read(),
          }),
      }
    },
    ending: null,
  },
]

/**
 * A row: `act` plays its story; `ending` is what it does to a live session.
 * `needsRefresh`: the row ends only through its own refresh. If tokens already rotated, the retry succeeds instead.
 */
interface Row {
  name: string
  act(d: Driver, sent: { generation: number; token: string }): void
  ending: Ending | null
  needsRefresh?: boolean
  /** The row begins a new session of its own (a sign-in): the tokens it brings must survive. */
  signsIn?: boolean
  /** The row is the user's own act (a log-out), not an answer: it happens whatever came before. */
  userAction?: boolean
}

/** A 401 needing a refresh. Its refresh answers `ok`; its retry answers `retry`. */
function refusedThenRefreshed(
  d: Driver,
  sent: { generation: number; token: string },
  ok: boolean,
  retry: ErrorBody | null,
) {
  const call = d.refuse(sent, { error: 'token_expired' })
  const refresh = d.pendingRefresh()
  if (refresh && !d.resumed.has(call)) d.answerRefresh(refresh, ok)
  if (d.resumed.get(call)) {
    d.send({ type: 'RETRY_ANSWERED', generation: sent.generation, status: retry ? 401 : 200, body: retry })
  }
}

const ROWS: readonly Row[] = [
  {
    name: 'catalogue: refresh fails',
    act: (d, sent) => refusedThenRefreshed(d, sent, false, null),
    ending: { toast: REFRESH_FAILED, navigate: true },
    needsRefresh: true,
  },
  {
    name: 'catalogue: retried request gets 401 token_expired',
    act: (d, sent) => refusedThenRefreshed(d, sent, true, { error: 'token_expired', message: 'x' }),
    ending: { toast: EXPIRED, navigate: true },
  },
  {
    name: 'catalogue: retried request gets 401 token_invalid',
    act: (d, sent) => refusedThenRefreshed(d, sent, true, { error: 'token_invalid', message: 'x' }),
    ending: { toast: INVALID, navigate: true },
  },
  {
    name: 'catalogue: other 401 with a message',
    act: (d, sent) => d.refuse(sent, { error: 'access_denied', message: SUSPENDED }),
    ending: { toast: SUSPENDED, navigate: true },
  },
  {
    name: 'catalogue: other 401 without a message',
    act: (d, sent) => d.refuse(sent, { error: 'access_denied' }),
    ending: { toast: AUTH_FAILED, navigate: true },
  },
  {
    name: 'catalogue: retried request gets 401 without a code',
    act: (d, sent) => refusedThenRefreshed(d, sent, true, {}),
    ending: { toast: AUTH_FAILED, navigate: true },
  },
  {
    name: 'catalogue: refresh without a refresh token',
    act(d, sent) {
      d.dropRefreshToken()
      refusedThenRefreshed(d, sent, false, null)
    },
    ending: { toast: REFRESH_FAILED, navigate: true },
    needsRefresh: true,
  },
  {
    name: 'keeps: 401 token_expired, one refresh, the retry succeeds',
    act: (d, sent) => refusedThenRefreshed(d, sent, true, null),
    ending: null,
  },
  {
    name: 'log-out',
    act: (d) => d.send({ type: 'LOGOUT_REQUESTED', stored: d.read() }),
    ending: { toast: null, navigate: true },
    userAction: true,
  },
  {
    name: 'log-out in another tab',
    act: (d) => d.send({ type: 'LOGGED_OUT_ELSEWHERE' }),
    ending: { toast: null, navigate: false },
  },
  {
    name: 'the session call says signed out',
    act: (d, sent) => d.send({ type: 'SESSION_LOADED', generation: sent.generation, user: null }),
    ending: { toast: null, navigate: false },
  },
  {
    name: 'a new sign-in',
    act: (d, sent) =>
      d.send({
        type: 'SIGNED_IN',
        generation: sent.generation,
        user: NEW_USER,
        tokens: { accessToken: 'a-new', refreshToken: 'r-new' },
        redirect: '/',
      }),
    ending: null,
    signsIn: true,
  },
]

const ORDERS = ['before', 'after'] as const
const REFRESHING = new Set([
  'the start-up refresh and session call in flight',
  'a periodic refresh in flight',
  'another tab rotating our token',
])

const cells = ROWS.flatMap((row) =>
  IN_FLIGHT.flatMap((work) =>
    ORDERS.map((order) => ({ row, work, order, name: `${row.name} | ${work.name} | answer ${order}` })),
  ),
)

/** What must come of a cell: the first thing to end the session wins (null: the session lives on). */
function expectedEnding(row: Row, work: InFlight, order: (typeof ORDERS)[number]): Ending | null {
  if (order === 'before' && work.ending) return work.ending
  // The tokens rotated before the row's 401 came back: it is retried with them, and its refresh never happens.
  const rowEnding = row.needsRefresh && order === 'before' && REFRESHING.has(work.name) ? null : row.ending
  if (rowEnding || row.signsIn) return rowEnding
  return work.ending // the row left the session as it was: the work's answer still belongs to it
}

describe('the race matrix: an answer against an ending, in both orders', () => {
  for (const { row, work, order, name } of cells)
    test(name, () => {
      const d = createDriver()
      d.signIn()
      const inFlight = work.start(d)
      const sent = { generation: d.state.generation, token: d.read().accessToken as string }
      const startedAt = d.log.length
      if (order === 'before') inFlight.answer(d)
      row.act(d, sent)
      if (order === 'after') inFlight.answer(d)

      const later = d.log.slice(startedAt)
      const effects = later.flatMap((entry) => entry.effects)
      const ending = expectedEnding(row, work, order)
      const signedInAgain = row.signsIn === true && ending === null

      // Exactly the first ending's toast, once; /login at most once.
      const toasts = effects.flatMap((e) => (e.type === 'notify' ? [e.message] : []))
      expect(toasts).toEqual(ending?.toast ? [ending.toast] : [])
      // A log-out the user asks for after an ending still ends on /login (the /logout page moves on).
      const logins = effects.filter((e) => e.type === 'navigate' && e.to === '/login')
      const ownLogin = row.userAction && ending !== row.ending ? 1 : 0
      expect(logins).toHaveLength((ending?.navigate ? 1 : 0) + ownLogin)

      // Once the session changed hands, nothing of the old one writes, toasts or navigates.
      const turn = later.findIndex((entry) => entry.after > entry.before)
      if (ending || signedInAgain) {
        expect(turn, 'the session changed generation').toBeGreaterThanOrEqual(0)
        const afterTurn = later.slice(turn + 1).flatMap((entry) => entry.effects)
        expect(
          afterTurn.filter((e) =>
            ['storeTokens', 'announceRotation', 'sendRefresh', 'acquireLock', 'notify'].includes(e.type),
          ),
        ).toEqual([])
        expect(afterTurn.filter((e) => e.type === 'navigate' && e.to !== '/login')).toEqual([])
      }

      if (signedInAgain) {
        expect(d.stored).toMatchObject({ accessToken: 'a-new', refreshToken: 'r-new' })
        expect(d.state).toMatchObject({ user: NEW_USER, hasTokens: true, refresh: null })
      } else if (ending) {
        expect(d.stored).toBeNull()
        expect(d.state).toMatchObject({ user: null, hasTokens: false, timerRunning: false, refresh: null })
      } else {
        // The session lives on the newest pair the server gave, with its user, and one refresh at a time.
        expect(d.stored?.accessToken).toMatch(/^a[1-9]$/)
        // (the row that takes the refresh token away leaves it away)
        if (!row.needsRefresh || d.stored?.refreshToken !== null)
          expect(d.stored?.refreshToken).toMatch(/^r[1-9]$/)
        expect(d.state).toMatchObject({ user: ADA, hasTokens: true, timerRunning: true })
        expect(d.refreshesSent()).toBeLessThanOrEqual(work.name === 'a retried call in flight' ? 2 : 1)
      }

      // No call is left hanging: every refused call was answered (a token to retry with, or give up).
      for (const call of d.calls) expect(d.resumed.has(call), `call ${call} resumed`).toBe(true)
    })

  test('the matrix covers every row against every kind of work in flight, in both orders', () => {
    expect(cells).toHaveLength(ROWS.length * IN_FLIGHT.length * 2)
    expect(ROWS.length * IN_FLIGHT.length * 2).toBe(120)
  })
})
