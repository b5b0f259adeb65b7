// The mailbox and the request journal as the QA command line prints them for people.
// Pure: no fetch, no process; answers and a Style in, lines out.
import type { JournalEntry, Mail } from '#api/mock-client.ts'
import { formatAge, formatTable } from './scenario-format.ts'
import { visible, type Style } from './terminal-style.ts'

/** The mails, oldest first, their ages by the server's clock at `now`. Codes are shown: that is the mailbox's purpose. */
export function formatMailbox(messages: Mail[], email: string, now: string, style: Style): string[] {
  if (messages.length === 0) return [`No mail to ${email} yet.`]
  const count = `${messages.length} mail${messages.length === 1 ? '' : 's'}`
  return [
    `${count} to ${email}, oldest first:`,
    ...formatTable(
      ['ADDRESS', 'PURPOSE', 'CODE', 'AGE'],
      messages.map((mail) => [
        mail.to,
        mail.purpose,
        mail.code ? { text: mail.code, paint: style.bold } : { text: '-', paint: style.dim },
        formatAge(mail.sent_at, now),
      ]),
      style,
    ).map((line) => `  ${line}`),
  ]
}

function paintStatus(status: number, style: Style): string {
  const text = String(status)
  if (status >= 500) return style.red(text)
  if (status >= 400) return style.yellow(text)
  if (status >= 300) return style.cyan(text)
  return style.green(text)
}

/**
 * One call on one line. Fixed widths up to the path, so lines printed one at a time line up.
 * @example formatJournalEntry(entry, PLAIN) // '   12  10:21:03  POST    202  /api/auth/forgot  forgotPassword · ada@example.com'
 */
export function formatJournalEntry(entry: JournalEntry, style: Style): string {
  const time = entry.at.slice(11, 19)
  const facts = [
    entry.operation && style.dim(visible(entry.operation)),
    entry.email && visible(entry.email),
    entry.scenario && style.magenta(`scenario ${visible(entry.scenario)}`),
  ].filter(Boolean)
  const head = `${String(entry.seq).padStart(5)}  ${style.dim(visible(time))}  ${visible(entry.method).padEnd(6)}  ${paintStatus(entry.status, style)}  ${visible(entry.path)}`
  return facts.length > 0 ? `${head}  ${facts.join(style.dim(' · '))}` : head
}

/** The journal as `requests` prints it: a line saying what it is, then one line per call. */
export function formatJournal(
  entries: JournalEntry[],
  filter: { email?: string | undefined; since?: string | undefined },
  style: Style,
): string[] {
  const scope = [filter.email && `of ${filter.email}`, filter.since && `after ${filter.since}`]
    .filter(Boolean)
    .join(' ')
  if (entries.length === 0) return [`No calls${scope ? ` ${scope}` : ''} in the journal.`]
  const count = `${entries.length} call${entries.length === 1 ? '' : 's'}`
  return [
    `${count}${scope ? ` ${scope}` : ''}, oldest first (times by the server clock, UTC):`,
    ...entries.map((entry) => formatJournalEntry(entry, style)),
  ]
}
