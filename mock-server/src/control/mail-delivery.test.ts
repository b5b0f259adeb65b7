// Mail delivery behind the call (docs/mail.md): deliver returns at once, a failed send is tried again after each
// documented wait, a final failure is one line without address or code, and close gives waiting mails their last try.
import { expect, test } from 'vitest'
import { createManualTimer } from '../../testing/manual-timer.ts'
import {
  CODE_TTL_MS,
  MAIL_ATTEMPT_DEADLINE_MS,
  MAIL_CLOSE_DEADLINE_MS,
  MAIL_RETRY_DELAYS_MS,
} from '../shared/constants.ts'
import { createMailDelivery, type SendFailure } from './mail-delivery.ts'
import type { Mail } from './mailbox.ts'

const MAIL: Mail = {
  to: 'ada@example.com',
  subject: 'Your sign-in code',
  purpose: 'login',
  code: '123456',
  sent_at: '2026-01-02T03:04:05.678Z',
}

const TRANSIENT: SendFailure = { permanent: false, reason: 'the server answered 451' }
const PERMANENT: SendFailure = { permanent: true, reason: 'the server answered 550' }

/** A send whose outcomes the test lists; past the list every send succeeds. */
function setUp(outcomes: Array<'ok' | SendFailure | 'hang'>, options: { maxWaiting?: number } = {}) {
  const timer = createManualTimer()
  const deadlines = createManualTimer()
  const lines: string[] = []
  const sent: Mail[] = []
  const signals: AbortSignal[] = []
  let calls = 0
  const delivery = createMailDelivery({
    async send(mail, signal) {
      signals.push(signal)
      const outcome = outcomes[calls++] ?? 'ok'
      if (outcome === 'hang') return new Promise(() => {})
      if (outcome !== 'ok') throw outcome
      sent.push(mail)
    },
    classify: (error) => error as SendFailure,
    report: (line) => lines.push(line),
    timer,
    deadlines,
    via: 'over SMTP',
    ...options,
  })
  return { delivery, timer, deadlines, lines, sent, signals, calls: () => calls }
}

test('deliver returns before the send starts, and flush waits for it', async () => {
  const { delivery, sent, calls } = setUp([])
  delivery.deliver(MAIL)
  expect(calls()).toBe(0)
  await delivery.flush()
  expect(sent).toEqual([MAIL])
})

test('a send that never ends holds neither deliver nor the next mails past the two at once', async () => {
  const { delivery, calls } = setUp(['hang', 'hang'])
  for (let i = 0; i < 3; i += 1) delivery.deliver(MAIL)
  await Promise.resolve()
  expect(calls()).toBe(2)
})

test('a transient failure is tried again after each documented wait, then reported once without address or code', async () => {
  const { delivery, timer, lines } = setUp([TRANSIENT, TRANSIENT, TRANSIENT, TRANSIENT])
  delivery.deliver(MAIL)
  for (const _ of MAIL_RETRY_DELAYS_MS) {
    await timer.untilPending(1)
    timer.fireNext()
  }
  await delivery.flush()
  expect(timer.history).toEqual([...MAIL_RETRY_DELAYS_MS])
  expect(timer.pending()).toEqual([])
  expect(lines).toEqual([
    'Failed to deliver a mail over SMTP: the server answered 451, given up after 4 attempts (a sign-in code mail of 2026-01-02T03:04:05.678Z).',
  ])
  expect(lines.join('\n')).not.toMatch(/ada@|123456/)
})

test('a mail that goes through on a retry is reported nowhere', async () => {
  const { delivery, timer, lines, sent } = setUp([TRANSIENT])
  delivery.deliver(MAIL)
  await timer.untilPending(1)
  timer.fireNext()
  await delivery.flush()
  expect(sent).toEqual([MAIL])
  expect(lines).toEqual([])
})

test('a permanent failure is reported at once and never tried again', async () => {
  const { delivery, timer, lines, calls } = setUp([PERMANENT])
  delivery.deliver({ ...MAIL, purpose: 'signup', subject: 'Confirm your e-mail address' })
  await delivery.flush()
  expect(calls()).toBe(1)
  expect(timer.history).toEqual([])
  expect(lines).toEqual([
    'Failed to deliver a mail over SMTP: the server answered 550, refused after 1 attempt (a sign-up code mail of 2026-01-02T03:04:05.678Z).',
  ])
})

test('past the cap of mails waiting, a new one is dropped with one line', async () => {
  const { delivery, lines, calls } = setUp(['hang', 'hang'], { maxWaiting: 2 })
  for (let i = 0; i < 3; i += 1) delivery.deliver(MAIL)
  await Promise.resolve()
  expect(calls()).toBe(2)
  expect(lines).toEqual([
    'Failed to deliver a mail over SMTP: 2 mails are waiting already, so it was dropped (a sign-in code mail of 2026-01-02T03:04:05.678Z).',
  ])
})

test('flush does not wait for a retry; close gives it its last attempt now and reports a failure as given up', async () => {
  const { delivery, timer, lines, calls } = setUp([TRANSIENT, TRANSIENT])
  delivery.deliver(MAIL)
  await timer.untilPending(1)
  await delivery.flush()
  expect(calls()).toBe(1)
  await delivery.close()
  expect(calls()).toBe(2)
  expect(timer.pending()).toEqual([])
  expect(lines).toEqual([
    'Failed to deliver a mail over SMTP: the server answered 451, given up at shutdown after 2 attempts (a sign-in code mail of 2026-01-02T03:04:05.678Z).',
  ])
})

test('close delivers a waiting mail that now goes through, and reports nothing', async () => {
  const { delivery, timer, lines, sent } = setUp([TRANSIENT])
  delivery.deliver(MAIL)
  await timer.untilPending(1)
  await delivery.close()
  expect(sent).toEqual([MAIL])
  expect(lines).toEqual([])
})

/** Resolves once `count` sends have started. */
async function untilSends(calls: () => number, count: number) {
  while (calls() < count) await new Promise((resolve) => setImmediate(resolve))
}

const NOTICE: Mail = {
  to: 'ada@example.com',
  subject: 'Your password was changed',
  purpose: 'password_changed',
  sent_at: '2026-01-02T03:04:05.678Z',
}

test('an attempt past its deadline is aborted and tried again, and the mail behind it goes on', async () => {
  const { delivery, timer, deadlines, lines, sent, signals, calls } = setUp(['hang', 'hang'])
  for (const mail of [NOTICE, NOTICE, MAIL]) delivery.deliver(mail)
  await untilSends(calls, 2)
  deadlines.fire(MAIL_ATTEMPT_DEADLINE_MS)
  await untilSends(calls, 3)
  expect(signals.map((signal) => signal.aborted)).toEqual([true, false, false])
  expect(timer.pending()).toEqual([MAIL_RETRY_DELAYS_MS[0]])
  timer.fireNext()
  await untilSends(calls, 4)
  deadlines.fire(MAIL_ATTEMPT_DEADLINE_MS)
  await delivery.flush()
  expect(sent).toEqual([MAIL, NOTICE])
  expect(lines).toEqual([])
  expect(timer.pending()).toEqual([MAIL_RETRY_DELAYS_MS[0]])
})

test("a code's mail is not sent once its code expired: not waiting for a retry, nor in an attempt", async () => {
  const { delivery, timer, deadlines, lines, signals, calls } = setUp([TRANSIENT, 'hang'])
  delivery.deliver(MAIL)
  delivery.deliver({ ...MAIL, purpose: 'reset', subject: 'Reset your password' })
  await untilSends(calls, 2)
  await timer.untilPending(1)
  // Both codes expire: the first waits for its retry, the second is in its first attempt.
  deadlines.fire(CODE_TTL_MS)
  deadlines.fire(CODE_TTL_MS)
  await delivery.flush()
  expect(timer.pending()).toEqual([])
  expect(signals[1]!.aborted).toBe(true)
  expect(calls()).toBe(2)
  expect(lines).toEqual([
    'Failed to deliver a mail over SMTP: its code expired before it was sent, given up after 1 attempt (a sign-in code mail of 2026-01-02T03:04:05.678Z).',
    'Failed to deliver a mail over SMTP: its code expired before it was sent, given up after 1 attempt (a password reset code mail of 2026-01-02T03:04:05.678Z).',
  ])
})

test('a mail without a code has no lifetime, and a delivered one leaves no deadline behind', async () => {
  const { delivery, deadlines } = setUp([])
  delivery.deliver(NOTICE)
  delivery.deliver(MAIL)
  await delivery.flush()
  expect(deadlines.pending()).toEqual([])
  expect(deadlines.history.filter((ms) => ms === CODE_TTL_MS)).toHaveLength(1)
})

test("at the shutdown's deadline every mail not sent is reported, sends under way aborted, and close resolves", async () => {
  const { delivery, deadlines, lines, signals, calls } = setUp(['hang', 'hang'])
  for (let i = 0; i < 3; i += 1) delivery.deliver(MAIL)
  await untilSends(calls, 2)
  const closed = delivery.close()
  deadlines.fire(MAIL_CLOSE_DEADLINE_MS)
  await closed
  expect(signals.map((signal) => signal.aborted)).toEqual([true, true])
  expect(calls()).toBe(2)
  const of = '(a sign-in code mail of 2026-01-02T03:04:05.678Z).'
  expect(lines.sort()).toEqual([
    `Failed to deliver a mail over SMTP: no answer by the shutdown's 5 s, given up at shutdown after 1 attempt ${of}`,
    `Failed to deliver a mail over SMTP: no answer by the shutdown's 5 s, given up at shutdown after 1 attempt ${of}`,
    `Failed to deliver a mail over SMTP: the shutdown came before its turn, given up at shutdown after 0 attempts ${of}`,
  ])
  expect(deadlines.pending()).toEqual([])
})
