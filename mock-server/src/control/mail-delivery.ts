// Mails handed to a transport that may fail (SMTP): sent a few at a time, never awaited by the call that caused them,
// tried again after each of a few waits, and each final failure reported in one line without the address or the
// code (docs/mail.md). Each attempt, a code's mail and the shutdown have a deadline of their own. Pure: the send,
// the timers and the report are handed in.
import {
  CODE_TTL_MS,
  MAIL_ATTEMPT_DEADLINE_MS,
  MAIL_CLOSE_DEADLINE_MS,
  MAIL_RETRY_DELAYS_MS,
  MAIL_SEND_CONCURRENCY,
  MAX_MAILS_WAITING,
} from '../shared/constants.ts'
import type { MailOutbox } from './mail-outbox.ts'
import type { Mail, MailPurpose } from './mailbox.ts'

/** Runs `run` after `ms`; the function it returns cancels it. Tests hand one they fire themselves. */
export interface Timer {
  after(ms: number, run: () => void): () => void
}

/** Why a send failed, in words a log line may carry, and whether trying again could help. */
export interface SendFailure {
  permanent: boolean
  reason: string
}

export interface MailDeliveryOptions {
  /** Sends one mail; `signal` aborts when the attempt has passed its deadline or the shutdown gave up on it. */
  send(mail: Mail, signal: AbortSignal): Promise<void>
  classify(error: unknown): SendFailure
  report(line: string): void
  /** Schedules the retries. */
  timer: Timer
  /** Schedules the deadlines: an attempt's, a code's lifetime and the shutdown's. */
  deadlines: Timer
  /** The transport, as the report names it ('over SMTP'). */
  via: string
  delaysMs?: readonly number[]
  attemptDeadlineMs?: number
  closeDeadlineMs?: number
  /**
   * Runs the first attempt of a new mail later (default: a microtask), never inside the call that sent it, so the
   * answer does not carry the cost of starting a send. The Node server hands setImmediate: after the answer is written.
   */
  defer?: (run: () => void) => void
  concurrency?: number
  maxWaiting?: number
}

export interface MailDelivery extends MailOutbox {
  /** Resolves once no attempt runs and none is due (mails waiting for a retry do not hold it). */
  flush(): Promise<void>
  /**
   * Gives every mail waiting for a retry its last attempt now, then resolves once none runs; at the close deadline
   * every mail not sent yet is reported and its attempt aborted.
   */
  close(): Promise<void>
}

/** How a report line names a mail: its kind, never its address or code. */
const KINDS: Record<MailPurpose, string> = {
  signup: 'sign-up code',
  login: 'sign-in code',
  reset: 'password reset code',
  account_exists: 'account-exists notice',
  password_changed: 'password-changed notice',
}

interface Job {
  mail: Mail
  attempts: number
  /** Cancels the wait for its next attempt. */
  cancel?: () => void
  /** Cancels the end of its code's lifetime. */
  stopExpiry?: () => void
  /** Ends its attempt under way with this failure, whatever the send does next. */
  stop?: (failure: SendFailure) => void
  expired?: boolean
}

/** A code's mail that arrives after the code expired is no use, and would only confuse its reader. */
const EXPIRED: SendFailure = { permanent: false, reason: 'its code expired before it was sent' }

/**
 * @example
 * const delivery = createMailDelivery({ send, classify, report: console.error, timer, deadlines: timer, via: 'over SMTP' })
 * delivery.deliver(mail) // returns at once; the send runs behind
 */
export function createMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const { send, classify, report, timer, deadlines, via } = options
  const delays = options.delaysMs ?? MAIL_RETRY_DELAYS_MS
  const attemptDeadlineMs = options.attemptDeadlineMs ?? MAIL_ATTEMPT_DEADLINE_MS
  const closeDeadlineMs = options.closeDeadlineMs ?? MAIL_CLOSE_DEADLINE_MS
  const concurrency = options.concurrency ?? MAIL_SEND_CONCURRENCY
  const maxWaiting = options.maxWaiting ?? MAX_MAILS_WAITING
  const defer = options.defer ?? queueMicrotask
  const due: Job[] = []
  const retrying = new Set<Job>()
  const running = new Set<Job>()
  let closing = false
  const idle: Array<() => void> = []

  const describe = (job: Job) => `(a ${KINDS[job.mail.purpose]} mail of ${job.mail.sent_at})`
  const attempts = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`

  function pump(): void {
    while (running.size < concurrency && due.length > 0) void attempt(due.shift()!)
    if (running.size > 0 || due.length > 0) return
    for (const resolve of idle.splice(0)) resolve()
  }

  async function attempt(job: Job): Promise<void> {
    running.add(job)
    job.attempts += 1
    const aborted = new AbortController()
    let sendEnded = false
    let stopDeadline = () => {}
    // Whichever comes first ends the attempt: the send, its deadline, the code's expiry or the shutdown's deadline.
    const failure = await new Promise<SendFailure | null>((settle) => {
      job.stop = settle
      stopDeadline = deadlines.after(attemptDeadlineMs, () =>
        settle({ permanent: false, reason: `no answer within ${attemptDeadlineMs / 1000} s` }),
      )
      let sending: Promise<void>
      try {
        sending = send(job.mail, aborted.signal)
      } catch (error) {
        sending = Promise.reject(error)
      }
      sending.then(
        () => {
          sendEnded = true
          settle(null)
        },
        (error: unknown) => {
          sendEnded = true
          settle(classify(error))
        },
      )
    })
    stopDeadline()
    job.stop = undefined
    // A send still under way (past its deadline, or given up on) is ended: it holds no connection.
    if (!sendEnded) aborted.abort()
    if (failure) failed(job, failure)
    else job.stopExpiry?.()
    running.delete(job)
    pump()
  }

  function failed(job: Job, failure: SendFailure): void {
    const delay = delays[job.attempts - 1]
    if (failure.permanent || delay === undefined || closing || job.expired) {
      const why = failure.permanent
        ? 'refused'
        : closing && delay !== undefined && !job.expired
          ? 'given up at shutdown'
          : 'given up'
      giveUp(job, `${failure.reason}, ${why} after ${attempts(job.attempts)}`)
      return
    }
    retrying.add(job)
    job.cancel = timer.after(delay, () => {
      retrying.delete(job)
      due.push(job)
      pump()
    })
  }

  function giveUp(job: Job, what: string): void {
    job.stopExpiry?.()
    report(`Failed to deliver a mail ${via}: ${what} ${describe(job)}.`)
  }

  /** The code in `job`'s mail has expired: it is not sent, nor tried again. */
  function expire(job: Job): void {
    job.expired = true
    if (running.has(job)) return job.stop?.(EXPIRED)
    const queued = due.indexOf(job)
    if (queued >= 0) due.splice(queued, 1)
    else if (retrying.delete(job)) job.cancel?.()
    else return
    giveUp(job, `${EXPIRED.reason}, given up after ${attempts(job.attempts)}`)
    pump()
  }

  const flush = () =>
    running.size === 0 && due.length === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => idle.push(resolve))

  return {
    deliver(mail) {
      const waiting = due.length + retrying.size + running.size
      if (waiting >= maxWaiting) {
        report(
          `Failed to deliver a mail ${via}: ${waiting} mails are waiting already, so it was dropped ${describe({ mail, attempts: 0 })}.`,
        )
        return
      }
      const job: Job = { mail, attempts: 0 }
      if (mail.code !== undefined) job.stopExpiry = deadlines.after(CODE_TTL_MS, () => expire(job))
      due.push(job)
      defer(pump)
    },
    flush,
    close() {
      closing = true
      for (const job of retrying) {
        job.cancel?.()
        due.push(job)
      }
      retrying.clear()
      pump()
      const done = flush()
      const stopWaiting = deadlines.after(closeDeadlineMs, () => {
        // Past it the process is about to exit: each mail not sent is reported now, or never.
        for (const job of due.splice(0))
          giveUp(
            job,
            `the shutdown came before its turn, given up at shutdown after ${attempts(job.attempts)}`,
          )
        for (const job of [...running])
          job.stop?.({ permanent: false, reason: `no answer by the shutdown's ${closeDeadlineMs / 1000} s` })
      })
      return done.then(() => stopWaiting())
    },
  }
}
