// `--smtp <url>` (SMTP_URL): every mail the product sends also goes to an SMTP server through nodemailer, with a
// plain-text and an HTML body (docs/mail.md). Node only: compose/node-ports.ts hands it in, so the browser demo never
// bundles nodemailer. Nothing here logs: no address, no code, no credential; failures reach `report` through
// control/mail-delivery.ts as one line each.
import { rootCertificates } from 'node:tls'
import { createTransport } from 'nodemailer'
import { renderMail } from './mail-content.ts'
import {
  createMailDelivery,
  type MailDelivery,
  type MailDeliveryOptions,
  type SendFailure,
  type Timer,
} from './mail-delivery.ts'

export interface SmtpSettings {
  host: string
  port: number
  /** smtps://: TLS from the first byte. smtp:// upgrades with STARTTLS when the server offers it. */
  implicitTls: boolean
  /** smtp://…?tls=required: no mail goes unless STARTTLS succeeds. */
  requireTls: boolean
  /** PEM certificates trusted besides the system's (?ca=<file>), e.g. a company or test CA. */
  ca?: string | undefined
  /** From SMTP_USER and SMTP_PASSWORD, or SMTP_URL's user part; never printed (cli/smtp-values.ts). */
  auth?: { user: string; pass: string } | undefined
  /** The From address (--smtp-from, MAIL_FROM). */
  from: string
}

/** Bounds a dead or stuck server so attempts end and retries (or the shutdown) go on. */
const TIMEOUTS = { connectionTimeout: 15_000, greetingTimeout: 15_000, socketTimeout: 60_000 } as const

/** Node's timer, unref'ed: a retry waiting must not keep the process alive. */
export const NODE_TIMER: Timer = {
  after(ms, run) {
    const handle = setTimeout(run, ms)
    handle.unref()
    return () => clearTimeout(handle)
  },
}

/**
 * A 5xx answer is final (the server will say the same again); a 4xx, a lost connection or a failed handshake is
 * tried again. The reason names the answer's code or the error's, never the server's text, which may quote the address.
 */
export function classifySmtpError(error: unknown): SendFailure {
  const { responseCode, code, originalCode } = (error ?? {}) as Record<string, unknown>
  const codes = [code, originalCode].filter(
    (part) => typeof part === 'string' && /^[A-Z][A-Z0-9_]*$/.test(part),
  )
  const named = codes.length > 0 ? ` (${codes.join(', ')})` : ''
  if (typeof responseCode === 'number')
    return {
      permanent: responseCode >= 500 && responseCode < 600,
      reason: `the server answered ${responseCode}${named}`,
    }
  return { permanent: false, reason: `the connection failed${named || ' (no error code)'}` }
}

/**
 * @example
 * const smtp = createSmtpOutbox({ host: 'mail.example', port: 587, implicitTls: false, requireTls: true,
 *   from: 'Auth Shell <no-reply@example.com>' }, console.error)
 * smtp.deliver(mail) // sent behind; smtp.close() at shutdown
 */
export function createSmtpOutbox(
  settings: SmtpSettings,
  report: (line: string) => void,
  timing: Partial<
    Pick<MailDeliveryOptions, 'timer' | 'deadlines' | 'attemptDeadlineMs' | 'closeDeadlineMs'>
  > = {},
): MailDelivery {
  const transport = createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.implicitTls,
    requireTLS: settings.requireTls,
    ...(settings.auth && { auth: { user: settings.auth.user, pass: settings.auth.pass } }),
    tls: {
      minVersion: 'TLSv1.2',
      ...(settings.ca !== undefined && { ca: [...rootCertificates, settings.ca] }),
    },
    ...TIMEOUTS,
    logger: false,
    debug: false,
    disableFileAccess: true,
    disableUrlAccess: true,
  })
  const delivery = createMailDelivery({
    async send(mail, signal) {
      const { text, html } = renderMail(mail)
      await transport.sendMail({
        from: settings.from,
        to: mail.to,
        subject: mail.subject,
        text,
        html,
        // Out-of-office and other automatic replies are not sent back to a mail marked so.
        headers: { 'Auto-Submitted': 'auto-generated' },
        // Aborted, nodemailer closes the connection: a stuck attempt holds no socket past its deadline.
        signal,
      })
    },
    classify: classifySmtpError,
    report,
    timer: NODE_TIMER,
    deadlines: NODE_TIMER,
    ...timing,
    defer: setImmediate,
    via: 'over SMTP',
  })
  return {
    ...delivery,
    async close() {
      await delivery.close()
      transport.close()
    },
  }
}
