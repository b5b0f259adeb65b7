// The lock-out: per (account, address) locks, the per-account ceiling that paces unknown addresses, and bounded memory.
import { expect, test } from 'vitest'
import { createLockout, type LockoutPolicy } from './lockout.ts'

function createFakeClock(start = 1_000_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

const POLICY: LockoutPolicy = {
  threshold: 3,
  lockMs: 15 * 60_000,
  ceiling: { max: 6, windowMs: 24 * 3_600_000 },
  paceMs: 60_000,
  familiarMs: 30 * 24 * 3_600_000,
}

const fail = (lockout: ReturnType<typeof createLockout>, account: string, client: string, times: number) => {
  for (let i = 0; i < times; i += 1) lockout.recordFailure(account, client)
}

test('threshold failures lock that address out of that account for lockMs; other addresses and accounts stay open', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY)
  fail(lockout, 'a@x', 'attacker', 2)
  expect(lockout.admit('a@x', 'attacker')).toEqual({ kind: 'open' })
  fail(lockout, 'a@x', 'attacker', 1)
  expect(lockout.admit('a@x', 'attacker')).toEqual({ kind: 'locked', retryAfter: 900 })
  expect(lockout.admit('a@x', 'owner')).toEqual({ kind: 'open' })
  expect(lockout.admit('b@x', 'attacker')).toEqual({ kind: 'open' })
  clock.advance(POLICY.lockMs - 1_000)
  expect(lockout.getLockSeconds('a@x', 'attacker')).toBe(1)
  clock.advance(1_000)
  expect(lockout.getLockSeconds('a@x', 'attacker')).toBe(0)
  fail(lockout, 'a@x', 'attacker', 2)
  expect(lockout.admit('a@x', 'attacker'), 'an ended lock starts the count again').toEqual({ kind: 'open' })
})

test("a success restarts only its own address's count: the owner signing in gives the attacker nothing", () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY)
  fail(lockout, 'a@x', 'attacker', 2)
  fail(lockout, 'a@x', 'owner', 2)
  lockout.recordSuccess('a@x', 'owner')
  fail(lockout, 'a@x', 'owner', 2)
  expect(lockout.admit('a@x', 'owner')).toEqual({ kind: 'open' })
  fail(lockout, 'a@x', 'attacker', 1)
  expect(lockout.admit('a@x', 'attacker').kind).toBe('locked')
})

test('past the ceiling, addresses the account does not know get one attempt per pace; known ones are not paced', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY)
  lockout.recordSuccess('a@x', 'owner-home')
  for (let i = 0; i < POLICY.ceiling.max; i += 1) lockout.recordFailure('a@x', `bot-${i}`)
  expect(lockout.admit('a@x', 'bot-new-1'), 'the first attempt of the pace window').toEqual({ kind: 'open' })
  expect(lockout.admit('a@x', 'bot-new-2')).toEqual({ kind: 'paced', retryAfter: 60 })
  expect(lockout.admit('a@x', 'owner-travelling')).toEqual({ kind: 'paced', retryAfter: 60 })
  expect(lockout.admit('a@x', 'owner-home'), 'a known address').toEqual({ kind: 'open' })
  expect(lockout.admit('b@x', 'bot-new-2'), 'another account').toEqual({ kind: 'open' })
  clock.advance(POLICY.paceMs)
  expect(lockout.admit('a@x', 'owner-travelling')).toEqual({ kind: 'open' })
  clock.advance(POLICY.ceiling.windowMs)
  expect(lockout.admit('a@x', 'bot-new-3'), 'a new window').toEqual({ kind: 'open' })
  expect(lockout.admit('a@x', 'bot-new-4')).toEqual({ kind: 'open' })
})

test('a known address is known for familiarMs after its last sign-in', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, { ...POLICY, ceiling: { max: 1, windowMs: 365 * 24 * 3_600_000 } })
  lockout.recordSuccess('a@x', 'owner')
  lockout.recordFailure('a@x', 'bot')
  lockout.admit('a@x', 'bot') // takes the pace slot
  clock.advance(POLICY.familiarMs - 1)
  expect(lockout.admit('a@x', 'owner')).toEqual({ kind: 'open' })
  clock.advance(1)
  expect(lockout.admit('a@x', 'owner').kind, 'no longer known: paced like anyone').not.toBe('locked')
  expect(lockout.admit('a@x', 'owner')).toMatchObject({ kind: 'paced' })
})

test('forgetting an account (a new password) lifts its locks, its ceiling and its known addresses, and only its', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY)
  lockout.recordSuccess('a@x', 'owner')
  fail(lockout, 'a@x', 'attacker', 3)
  fail(lockout, 'ab@x', 'attacker', 3)
  for (let i = 0; i < POLICY.ceiling.max; i += 1) lockout.recordFailure('a@x', `bot-${i}`)
  lockout.forgetAccount('a@x')
  expect(lockout.admit('a@x', 'attacker')).toEqual({ kind: 'open' })
  expect(lockout.admit('a@x', 'someone')).toEqual({ kind: 'open' })
  expect(lockout.admit('a@x', 'someone else'), 'no ceiling left').toEqual({ kind: 'open' })
  expect(lockout.admit('ab@x', 'attacker').kind, 'another account keeps its lock').toBe('locked')
})

test('memory stays bounded: a flood of fresh pairs evicts counting pairs first and unlocks no one', () => {
  const clock = createFakeClock()
  const capacity = 50
  const lockout = createLockout(clock, POLICY, capacity)
  fail(lockout, 'victim@x', 'attacker', 3)
  lockout.recordFailure('victim@x', 'counting')
  for (let i = 0; i <= 10 * capacity; i += 1) lockout.recordFailure(`fresh-${i}@x`, 'flood')
  expect(lockout.size().pairs).toBeLessThanOrEqual(capacity)
  expect(lockout.size().ceiling).toBeLessThanOrEqual(capacity)
  for (let i = 0; i <= 10 * capacity; i += 1) lockout.recordSuccess(`other-${i}@x`, 'flood')
  expect(lockout.size().familiar).toBeLessThanOrEqual(capacity)
  expect(lockout.admit('victim@x', 'attacker').kind, 'still locked').toBe('locked')
})

test('when every pair is locked, ended locks make room first, then the oldest lock: memory stays bounded', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY, 4)
  fail(lockout, 'old@x', 'a', 3)
  clock.advance(POLICY.lockMs)
  for (const account of ['1@x', '2@x', '3@x']) fail(lockout, account, 'a', 3)
  fail(lockout, '4@x', 'a', 3)
  expect(lockout.size().pairs).toBe(4)
  expect(['1@x', '2@x', '3@x', '4@x'].map((account) => lockout.admit(account, 'a').kind)).toEqual([
    'locked',
    'locked',
    'locked',
    'locked',
  ])
  fail(lockout, '5@x', 'a', 3)
  expect(lockout.size().pairs).toBe(4)
  expect(lockout.admit('1@x', 'a').kind, 'the oldest lock went').toBe('open')
  expect(lockout.admit('5@x', 'a').kind).toBe('locked')
})

test('a full book drops an ended lock before a pair still counting, so that pair keeps its count', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY, 2)
  fail(lockout, 'ended@x', 'a', 3)
  fail(lockout, 'counting@x', 'a', 2)
  // The lock ends at this very millisecond: ended, so it is the one to make room.
  clock.advance(POLICY.lockMs)
  lockout.recordFailure('fresh@x', 'a')
  fail(lockout, 'counting@x', 'a', 1)
  expect(lockout.admit('counting@x', 'a').kind, 'its third failure locks it').toBe('locked')
})

test('an account at its ceiling keeps its window while a flood of fresh accounts fills the memory', () => {
  const clock = createFakeClock()
  const capacity = 4
  const lockout = createLockout(clock, POLICY, capacity)
  for (let i = 0; i < POLICY.ceiling.max; i += 1) lockout.recordFailure('a@x', `bot-${i}`)
  for (let i = 0; i < 10 * capacity; i += 1) lockout.recordFailure(`fresh-${i}@x`, 'flood')
  expect(lockout.admit('a@x', 'bot-new-1'), 'the pace slot').toEqual({ kind: 'open' })
  expect(lockout.admit('a@x', 'bot-new-2'), 'still past the ceiling').toEqual({
    kind: 'paced',
    retryAfter: 60,
  })
})

test('on a clock at the epoch (0) a pair still counting is open, and its threshold-th failure locks it', () => {
  // QA can set the server's clock to any instant, 0 included, where a counting pair's lockedUntil (0) is not a lock.
  const clock = createFakeClock(0)
  const lockout = createLockout(clock, POLICY)
  fail(lockout, 'a@x', 'attacker', 2)
  expect(lockout.admit('a@x', 'attacker')).toEqual({ kind: 'open' })
  expect(lockout.getLockSeconds('a@x', 'attacker')).toBe(0)
  fail(lockout, 'a@x', 'attacker', 1)
  expect(lockout.admit('a@x', 'attacker')).toEqual({ kind: 'locked', retryAfter: 900 })
})

test('an account keeps every address it signed in from, not only the last', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY)
  lockout.recordSuccess('a@x', 'home')
  lockout.recordSuccess('a@x', 'work')
  lockout.recordSuccess('b@x', 'home')
  expect(lockout.isKnown('a@x', 'home')).toBe(true)
  expect(lockout.isKnown('a@x', 'work')).toBe(true)
  expect(lockout.isKnown('b@x', 'home')).toBe(true)
})

test('forgetting an account keeps the known addresses of every other account', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY)
  lockout.recordSuccess('a@x', 'home')
  lockout.recordSuccess('ab@x', 'home')
  lockout.forgetAccount('a@x')
  expect(lockout.isKnown('a@x', 'home')).toBe(false)
  expect(lockout.isKnown('ab@x', 'home')).toBe(true)
})

test('clear forgets every lock, count, ceiling, pace and known address', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY)
  fail(lockout, 'a@x', 'attacker', 3)
  fail(lockout, 'a@x', 'counting', 2)
  lockout.recordSuccess('a@x', 'owner')
  for (let i = 0; i < POLICY.ceiling.max; i += 1) lockout.recordFailure('b@x', `bot-${i}`)
  lockout.admit('b@x', 'bot-new-1') // takes the pace slot
  lockout.clear()
  expect(lockout.admit('a@x', 'attacker'), 'no lock').toEqual({ kind: 'open' })
  expect(lockout.isKnown('a@x', 'owner'), 'no known address').toBe(false)
  fail(lockout, 'a@x', 'counting', 2)
  expect(lockout.admit('a@x', 'counting'), 'its count starts again').toEqual({ kind: 'open' })
  expect(lockout.admit('b@x', 'bot-new-2'), 'no ceiling').toEqual({ kind: 'open' })
  expect(lockout.admit('b@x', 'bot-new-3'), 'no ceiling').toEqual({ kind: 'open' })
  for (let i = 0; i < POLICY.ceiling.max; i += 1) lockout.recordFailure('b@x', `bot-${i}`)
  expect(lockout.admit('b@x', 'bot-new-4'), 'past the ceiling again, the pace slot is free').toEqual({
    kind: 'open',
  })
  expect(lockout.admit('b@x', 'bot-new-5')).toEqual({ kind: 'paced', retryAfter: 60 })
})

test('forgetting an account keeps the locks and known addresses of an account whose address merely starts with it', () => {
  const clock = createFakeClock()
  const lockout = createLockout(clock, POLICY)
  lockout.recordSuccess('ada@example.test.org', 'home')
  fail(lockout, 'ada@example.test.org', 'attacker', 3)
  lockout.forgetAccount('ada@example.test')
  expect(lockout.isKnown('ada@example.test.org', 'home')).toBe(true)
  expect(lockout.admit('ada@example.test.org', 'attacker').kind).toBe('locked')
})
