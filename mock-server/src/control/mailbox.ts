// The mailbox: every mail the server "sends", readable per address through /__mock/mailbox.
import type { components } from '#api/control.gen.ts'
import type { Clock } from '../shared/clock.ts'
import type { MailOutbox } from './mail-outbox.ts'

export type Mail = components['schemas']['Mail']
export type MailPurpose = Mail['purpose']

/** Mails kept at most (the newest), so sign-ups and resends grow neither memory nor the data file without bound. */
export const MAX_MAILS = 10_000

export interface Mailbox {
  send(mail: Omit<Mail, 'sent_at'>): void
  /** Mails to `email` (all mails without it), oldest first. */
  list(email?: string): Mail[]
  snapshot(): Mail[]
  restore(mails: Mail[]): void
  clear(): void
}

/**
 * @example
 * const mailbox = createMailbox(clock)
 * mailbox.send({ to: 'ada@example.com', subject: 'Your code', purpose: 'signup', code: '123456' })
 * mailbox.list('ada@example.com').at(-1)?.code // '123456'
 */
export function createMailbox(clock: Clock, max = MAX_MAILS): Mailbox {
  let mails: Mail[] = []
  return {
    send(mail) {
      mails.push({ ...mail, sent_at: new Date(clock.now()).toISOString() })
      if (mails.length > max) mails = mails.slice(-max)
    },
    list(email) {
      const wanted = email?.trim().toLowerCase()
      return mails.filter((mail) => wanted === undefined || mail.to === wanted).map((mail) => ({ ...mail }))
    },
    snapshot: () => mails.map((mail) => ({ ...mail })),
    restore(saved) {
      mails = saved.slice(-max).map((mail) => ({ ...mail }))
    },
    clear() {
      mails = []
    },
  }
}

/** The mailbox, with every mail it is given also delivered to `outbox`. */
export function withOutbox(mailbox: Mailbox, outbox: MailOutbox, clock: Clock): Mailbox {
  return {
    ...mailbox,
    send(mail) {
      mailbox.send(mail)
      outbox.deliver({ ...mail, sent_at: new Date(clock.now()).toISOString() })
    },
  }
}
