// `--mail-outbox DIR`: in production mode there is no /__mock mailbox, so each mail is written to this folder
// as one JSON `Mail` (mock-server/control.openapi.yaml), never to a log or HTTP
// (docs/decisions/020-deploying-on-two-origins.md). The folder is owner-only, since it holds everyone's codes.
// Each file is written beside and renamed, so a reader never sees half a mail.
import { randomBytes } from 'node:crypto'
import { lstatSync, mkdirSync } from 'node:fs'
import { rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Mail } from './mailbox.ts'

export interface MailOutbox {
  deliver(mail: Mail): void
  /** Resolves once every mail delivered so far is written (or has failed). */
  flush(): Promise<void>
}

/**
 * Makes the folder (a failure stops the start) and returns the outbox. A failed write is reported in one line
 * without the mail, and the server goes on.
 * @example
 * const outbox = createMailOutbox('/tmp/mails', console.error)
 * outbox.deliver({ to: 'ada@example.com', subject: 'Your code', purpose: 'signup', code: '123456', sent_at: '…' })
 */
export function createMailOutbox(dir: string, report: (line: string) => void): MailOutbox {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
  } catch (cause) {
    throw new Error(`Failed to start: --mail-outbox ${dir} cannot be made (${codeOf(cause)}).`, { cause })
  }
  const unsafe = unsafeFolder(dir)
  if (unsafe)
    throw new Error(`Failed to start: --mail-outbox ${dir} ${unsafe}; give a folder only you can open.`)
  let sent = 0
  let writing: Promise<void> = Promise.resolve()
  return {
    deliver(mail) {
      sent += 1
      // Sorted by name, the files are in the order they were sent.
      const name = `${mail.sent_at.replace(/[-:.]/g, '')}-${String(sent).padStart(6, '0')}-${randomBytes(3).toString('hex')}`
      const file = join(dir, `${name}.json`)
      writing = writing
        .then(async () => {
          await writeFile(`${file}.tmp`, `${JSON.stringify(mail, null, 2)}\n`, { mode: 0o600 })
          await rename(`${file}.tmp`, file)
        })
        .catch((error: unknown) => report(`Failed to write a mail to ${dir} (${codeOf(error)}).`))
    },
    flush: () => writing,
  }
}

/**
 * Why a folder would let someone else read, delete or plant mail, or null when it is the server user's own.
 * An existing folder is checked, not fixed (README: Security, "0600 in a 0700 folder").
 */
function unsafeFolder(dir: string): string | null {
  let stats
  try {
    stats = lstatSync(dir)
  } catch (cause) {
    return `cannot be read (${codeOf(cause)})`
  }
  if (stats.isSymbolicLink()) return 'is a symbolic link'
  if (!stats.isDirectory()) return 'is not a folder'
  const uid = process.getuid?.()
  if (uid !== undefined && stats.uid !== uid)
    return `belongs to user ${stats.uid}, not to this server's (${uid})`
  const mode = stats.mode & 0o777
  if ((mode & 0o077) !== 0) return `is open to others (mode ${mode.toString(8).padStart(4, '0')})`
  return null
}

function codeOf(error: unknown): string {
  return (error as { code?: string }).code ?? 'unknown error'
}
