// A real SMTP server for the tests of mail over SMTP (docs/mail.md): nodemailer's smtp-server on 127.0.0.1, port 0,
// keeping each mail it accepts, parsed (mailparser), and answering each DATA as the test says (451, 550, or 250).
// Waits are on its events, never on time. Shared by control/smtp-mail.test.ts, the contract suite and main's tests.
import { execFileSync } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { simpleParser } from 'mailparser'
import { SMTPServer, type SMTPServerOptions } from 'smtp-server'

export interface CapturedMail {
  from: string
  to: string
  subject: string
  text: string
  html: string
  /** Header names in lower case, with their values as text. */
  headers: Record<string, string>
  /** Whether the mail came over TLS (smtps or STARTTLS). */
  secure: boolean
  /** The user the client logged in as, if it did. */
  user: string | undefined
}

export interface CaptureOptions {
  /** The answer to the nth DATA (1-based): an SMTP code of 4xx or 5xx refuses it; anything else takes it. */
  answer?: (attempt: number) => number | undefined
  /** TLS with this key and certificate: from the first byte (`implicit`) or through STARTTLS. None: plain only. */
  tls?: { key: string; cert: string; implicit?: boolean }
  /** Require this login (AUTH PLAIN or LOGIN). */
  login?: { user: string; pass: string }
  /** The port to listen on (default 0: a free one). */
  port?: number
  /** Called with each mail taken, as it is taken. */
  onMail?: (mail: CapturedMail) => void
}

export interface SmtpCapture {
  port: number
  /** Every mail taken, in order. */
  mails: CapturedMail[]
  /** Every DATA seen, taken or refused. */
  attempts(): number
  /** Resolves once `ready()` holds after some event of the capture; rejects after `timeoutMs`. */
  until(ready: () => boolean, what: string, timeoutMs?: number): Promise<void>
  close(): Promise<void>
}

/** @example const capture = await startSmtpCapture({ answer: (n) => (n === 1 ? 451 : undefined) }) */
export async function startSmtpCapture(options: CaptureOptions = {}): Promise<SmtpCapture> {
  const mails: CapturedMail[] = []
  let attempts = 0
  const waiters = new Set<() => void>()
  const changed = () => {
    for (const waiter of [...waiters]) waiter()
  }
  const serverOptions: SMTPServerOptions = {
    logger: false,
    authOptional: options.login === undefined,
    ...(options.tls
      ? { key: options.tls.key, cert: options.tls.cert, secure: options.tls.implicit === true }
      : { disabledCommands: ['STARTTLS'], allowInsecureAuth: true }),
    onAuth(auth, _session, callback) {
      const ok = auth.username === options.login?.user && auth.password === options.login?.pass
      callback(ok ? null : Object.assign(new Error('Wrong login'), { responseCode: 535 }), {
        user: auth.username,
      })
    },
    onData(stream, session, callback) {
      attempts += 1
      const code = options.answer?.(attempts)
      void simpleParser(stream).then((parsed) => {
        if (code !== undefined && code >= 400) {
          callback(Object.assign(new Error(`Answered ${code} by the test`), { responseCode: code }))
        } else {
          const mail: CapturedMail = {
            from: parsed.from?.text ?? '',
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address).join(', '),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            headers: Object.fromEntries([...parsed.headers].map(([name, value]) => [name, String(value)])),
            secure: session.secure,
            user: typeof session.user === 'string' ? session.user : undefined,
          }
          mails.push(mail)
          options.onMail?.(mail)
          callback()
        }
        changed()
      })
    },
  }
  const server = new SMTPServer(serverOptions)
  // A client that gives up mid-handshake (an untrusted certificate) is an error of the connection, not the capture.
  server.on('error', () => {})
  server.listen(options.port ?? 0, '127.0.0.1')
  await Promise.race([
    once(server.server, 'listening'),
    once(server.server, 'error').then(([error]) => Promise.reject(error as Error)),
  ])
  return {
    port: (server.server.address() as AddressInfo).port,
    mails,
    attempts: () => attempts,
    until(ready, what, timeoutMs = 15_000) {
      if (ready()) return Promise.resolve()
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check)
          reject(new Error(`Failed to see ${what}: ${attempts} attempts, ${mails.length} mails taken.`))
        }, timeoutMs)
        function check() {
          if (!ready()) return
          clearTimeout(timer)
          waiters.delete(check)
          resolve()
        }
        waiters.add(check)
      })
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/**
 * A self-signed certificate for 127.0.0.1, made by the machine's openssl (node:crypto makes keys, not certificates),
 * or null where openssl is missing. Lives a day.
 */
export function createTestCertificate(): { key: string; cert: string } | null {
  const dir = mkdtempSync(join(tmpdir(), 'smtp-cert-'))
  try {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'],
        ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1'],
        ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      ],
      { stdio: 'ignore' },
    )
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    }
  } catch {
    return null
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
