/**
 * The suite's own SMTP server for a target that mails its codes (docs/contract-suite.md, "Codes without /__mock").
 * With CONTRACT_SMTP_PORT=<port>, the global setup listens there on 127.0.0.1 and writes each mail that carries a
 * code to the run's mail folder, one file per address, where every worker reads it (contracts/support/code-source.ts).
 */
import { createHash } from 'node:crypto'
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import type { MailPurpose } from '#api/mock-client.ts'
import { CODE_MAIL_SUBJECTS } from '#mock-server/shared/constants.ts'
import { startSmtpCapture, type CapturedMail } from '../../mock-server/testing/smtp-capture.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The folder of the captured mails, or null when the run captures none. */
    mailCaptureDir: string | null
  }
}

/** One captured mail that carries a code, as a line of its address's file. */
export interface CapturedCode {
  purpose: MailPurpose
  code: string
  /** When the capture took it, by this machine's clock (ms since the epoch). */
  receivedAt: number
}

/** The port of CONTRACT_SMTP_PORT, or null when unset. Throws on a value that is no port. */
export function readSmtpPort(value: string | undefined): number | null {
  const raw = value?.trim()
  if (!raw) return null
  const port = Number(raw)
  if (!/^\d+$/.test(raw) || port < 1 || port > 65_535)
    throw new Error(`CONTRACT_SMTP_PORT is a port from 1 to 65535, not ${JSON.stringify(raw)}.`)
  return port
}

/** The file of `email`'s captured codes: named by a digest, as an address may hold characters a file name cannot. */
export const mailFileOf = (dir: string, email: string): string =>
  join(dir, `${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32)}.jsonl`)

const PURPOSE_BY_SUBJECT = new Map<string, MailPurpose>(
  Object.entries(CODE_MAIL_SUBJECTS).map(([purpose, subject]) => [subject, purpose as MailPurpose]),
)

/** The code a mail carries: its purpose by subject, the first six-digit run of its text (docs/mail.md). */
export function codeOfMail(
  mail: Pick<CapturedMail, 'subject' | 'text'>,
): Omit<CapturedCode, 'receivedAt'> | null {
  const purpose = PURPOSE_BY_SUBJECT.get(mail.subject.trim())
  const code = /(?<!\d)\d{6}(?!\d)/.exec(mail.text)?.[0]
  return purpose && code ? { purpose, code } : null
}

/** Vitest's global setup of the contract project: the capture when CONTRACT_SMTP_PORT is set. */
export async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const port = readSmtpPort(process.env.CONTRACT_SMTP_PORT)
  // A mistake in how the codes are to be read fails the run once, here, rather than each check that reads one.
  const adapter = process.env.CONTRACT_CODE_ADAPTER?.trim()
  if (port !== null && adapter)
    throw new Error(
      'Give CONTRACT_SMTP_PORT or CONTRACT_CODE_ADAPTER, not both: the codes come from one place.',
    )
  if (adapter) await (await import('#contracts/support/code-source.ts')).loadCodeAdapter(adapter)
  if (port === null) {
    project.provide('mailCaptureDir', null)
    return undefined
  }
  const dir = mkdtempSync(join(tmpdir(), 'contract-mail-'))
  const capture = await startSmtpCapture({
    port,
    onMail(mail) {
      const found = codeOfMail(mail)
      if (!found) return
      const line: CapturedCode = { ...found, receivedAt: Date.now() }
      for (const to of mail.to.split(', ')) appendFileSync(mailFileOf(dir, to), `${JSON.stringify(line)}\n`)
    },
  }).catch((error: unknown) => {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(
      `Failed to capture mail on CONTRACT_SMTP_PORT ${port}: ${(error as Error).message}. Free the port, or give another to both the target and the suite.`,
      { cause: error },
    )
  })
  project.provide('mailCaptureDir', dir)
  console.log(`Contract suite: reading the target's codes from the mail it sends to smtp://127.0.0.1:${port}`)
  return async () => {
    await capture.close()
    rmSync(dir, { recursive: true, force: true })
  }
}
