// Mails handed to a transport that may fail (SMTP): sent a few at a time, never awaited by the call that caused them,
// tried again after each of a few waits, and each final failure reported in one line without the address or the
// code (docs/mail.md). Pure: the send, the timer and the report are handed in.
import { MAIL_RETRY_DELAYS_MS, MAIL_SEND_CONCURRENCY, MAX_MAILS_WAITING } from '../shared/constants.ts'
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
  send(mail: Mail): Promise<void>
  classify(error: unknown): SendFailure
  report(line: string): void
  timer: Timer
  /** The transport, as the report names it ('over SMTP'). */
  via: string
  delaysMs?: readonly number[]
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
  /** Gives every mail waiting for a retry its last attempt now, then resolves once none runs. */
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
  cancel?: () => void
}

/**
 * @example
 * const delivery = createMailDelivery({ send, classify, report: console.error, timer, via: 'over SMTP' })
 * delivery.deliver(mail) // returns at once; the send runs behind
 */
export function createMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const { send, classify, report, timer, via } = options
  const delays = options.delaysMs ?? MAIL_RETRY_DELAYS_MS
  const concurrency = options.concurrency ?? MAIL_SEND_CONCURRENCY
  const maxWaiting = options.maxWaiting ?? MAX_MAILS_WAITING
  const defer = options.defer ?? queueMicrotask
  const due: Job[] = []
  const retrying = new Set<Job>()
  let running = 0
  let closing = false
  const idle: Array<() => void> = []

  const describe = (job: Job) => `(a ${KINDS[job.mail.purpose]} mail of ${job.mail.sent_at})`
  const attempts = (n: number) => `${n} attempt${n === 1 ? '' : 's'}`

  function pump(): void {
    while (running < concurrency && due.length > 0) void attempt(due.shift()!)
    if (running > 0 || due.length > 0) return
    for (const resolve of idle.splice(0)) resolve()
  }

  async function attempt(job: Job): Promise<void> {
    running += 1
    job.attempts += 1
    try {
      await send(job.mail)
    } catch (error) {
      failed(job, classify(error))
    } finally {
      running -= 1
      pump()
    }
  }

  function failed(job: Job, failure: SendFailure): void {
    const delay = delays[job.attempts - 1]
    if (failure.permanent || delay === undefined || closing) {
      const why = failure.permanent
        ? 'refused'
        : closing && delay !== undefined
          ? 'given up at shutdown'
          : 'given up'
      report(
        `Failed to deliver a mail ${via}: ${failure.reason}, ${why} after ${attempts(job.attempts)} ${describe(job)}.`,
      )
      return
    }
    retrying.add(job)
    job.cancel = timer.after(delay, () => {
      retrying.delete(job)
      due.push(job)
      pump()
    })
  }

  const flush = () =>
    running === 0 && due.length === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))

  return {
    deliver(mail) {
      const waiting = due.length + retrying.size + running
      if (waiting >= maxWaiting) {
        report(
          `Failed to deliver a mail ${via}: ${waiting} mails are waiting already, so it was dropped ${describe({ mail, attempts: 0 })}.`,
        )
        return
      }
      due.push({ mail, attempts: 0 })
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
      return flush()
    },
  }
}
