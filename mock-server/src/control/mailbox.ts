// The mailbox: every mail the server "sends", readable per address through /__mock/mailbox.
import type { components } from '#api/control.gen.ts'
import type { Clock } from '../shared/clock.ts'
import type { MailOutbox } from './mail-outbox.ts'

export type Mail = components['schemas']['Mail']
export type MailPurpose = Mail['purpose']

/** Mails kept at most (the newest), so sign-ups and resends grow neither memory nor the data file without bound. */
export const MAX_MAILS = 10_000

/** In this process (createMailbox) or in the database every instance shares (compose/sql-control.ts). */
export interface Mailbox {
  send(mail: Omit<Mail, 'sent_at'>): Promise<void>
  /** Mails to `email` (all mails without it), oldest first. */
  list(email?: string): Promise<Mail[]>
  snapshot(): Promise<Mail[]>
  restore(mails: Mail[]): Promise<void>
  clear(): Promise<void>
}

/**
 * @example
 * const mailbox = createMailbox(clock)
 * mailbox.send({ to: 'ada@example.com', subject: 'Your code', purpose: 'signup', code: '123456' })
 * (await mailbox.list('ada@example.com')).at(-1)?.code // '123456'
 */
export function createMailbox(clock: Clock, max = MAX_MAILS): Mailbox {
  let mails: Mail[] = []
  return {
    async send(mail) {
      mails.push({ ...mail, sent_at: new Date(clock.now()).toISOString() })
      if (mails.length > max) mails = mails.slice(-max)
    },
    async list(email) {
      const wanted = email?.trim().toLowerCase()
      return mails.filter((mail) => wanted === undefined || mail.to === wanted).map((mail) => ({ ...mail }))
    },
    snapshot: async () => mails.map((mail) => ({ ...mail })),
    async restore(saved) {
      mails = saved.slice(-max).map((mail) => ({ ...mail }))
    },
    async clear() {
      mails = []
    },
  }
}

/** The mailbox, with every mail it is given also delivered to `outbox`. */
export function withOutbox(mailbox: Mailbox, outbox: MailOutbox, clock: Clock): Mailbox {
  return {
    ...mailbox,
    async send(mail) {
      await mailbox.send(mail)
      outbox.deliver({ ...mail, sent_at: new Date(clock.now()).toISOString() })
    },
  }
}
