// Mail delivery behind the call (docs/mail.md): deliver returns at once, a failed send is tried again after each
// documented wait, a final failure is one line without address or code, and close gives waiting mails their last try.
import { expect, test } from 'vitest'
import { createManualTimer } from '../../testing/manual-timer.ts'
import { MAIL_RETRY_DELAYS_MS } from '../shared/constants.ts'
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
  const lines: string[] = []
  const sent: Mail[] = []
  let calls = 0
  const delivery = createMailDelivery({
    async send(mail) {
      const outcome = outcomes[calls++] ?? 'ok'
      if (outcome === 'hang') return new Promise(() => {})
      if (outcome !== 'ok') throw outcome
      sent.push(mail)
    },
    classify: (error) => error as SendFailure,
    report: (line) => lines.push(line),
    timer,
    via: 'over SMTP',
    ...options,
  })
  return { delivery, timer, lines, sent, calls: () => calls }
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
