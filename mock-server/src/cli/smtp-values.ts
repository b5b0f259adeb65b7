// `--smtp <url>` / SMTP_URL, SMTP_USER, SMTP_PASSWORD and `--smtp-from` / MAIL_FROM, read and checked at start
// (docs/mail.md). No refusal quotes the URL or a credential: either may hold the password.
import type { SmtpSettings } from '../control/smtp-mail.ts'
import { isIP } from 'node:net'

/** The From address when neither --smtp-from nor MAIL_FROM names one. */
export const DEFAULT_MAIL_FROM = 'Auth Shell <no-reply@localhost>'

/** Both query settings the URL may carry; nodemailer's own URL options are not passed through. */
const QUERY = new Set(['tls', 'ca'])

/**
 * One address, alone or after a display name: `a@b.example` or `Name <a@b.example>`, on one line. A comma or a
 * semicolon would make it a list of senders.
 */
const FROM = /^(?:[^<>,;\p{Cc}]*<[^\s@<>,;]+@[^\s@<>,;]+>|[^\s@<>,;]+@[^\s@<>,;]+)$/u

export interface SmtpInput {
  flag: string | undefined
  from: string | undefined
  env: Record<string, string | undefined>
  /** Reads the ?ca= file (node:fs in flags.ts). */
  readFile: (path: string) => string
}

/**
 * The SMTP settings, or undefined when no URL is given. The flag wins over SMTP_URL; credentials come from
 * SMTP_USER and SMTP_PASSWORD, or from SMTP_URL's user part, never from the command line, which `ps` shows.
 * @example parseSmtp({ flag: 'smtp://mail.example?tls=required', from: undefined, env: {}, readFile })
 * // { host: 'mail.example', port: 587, implicitTls: false, requireTls: true, from: 'Auth Shell <no-reply@localhost>' }
 */
export function parseSmtp({ flag, from, env, readFile }: SmtpInput): SmtpSettings | undefined {
  if (flag === '')
    throw new Error(
      'Failed to start: --smtp is empty; give a URL like smtp://mail.example:587, or leave it out.',
    )
  const source = flag !== undefined ? '--smtp' : 'SMTP_URL'
  const value = flag ?? (env.SMTP_URL || undefined)
  if (value === undefined) {
    if (from !== undefined)
      throw new Error('Failed to start: --smtp-from has no use without --smtp or SMTP_URL.')
    return undefined
  }
  const url = parseUrl(value, source)
  const implicitTls = url.protocol === 'smtps:'
  const tls = url.searchParams.get('tls')
  if (tls !== null && tls !== 'required')
    throw new Error(`Failed to start: ${source} takes ?tls=required or no tls setting.`)
  const caFile = url.searchParams.get('ca')
  const sender = from ?? (env.MAIL_FROM || DEFAULT_MAIL_FROM)
  if (!FROM.test(sender))
    throw new Error(
      `Failed to start: ${from !== undefined ? '--smtp-from' : 'MAIL_FROM'} is not an address like no-reply@example.com or Auth Shell <no-reply@example.com>.`,
    )
  const auth = readCredentials(url, source, env)
  // A login never crosses a connection in clear: a network that strips the STARTTLS offer would get the password,
  // not only a code. To an address of this machine there is no network between to strip it; a name, even
  // `localhost`, nodemailer looks up in DNS first, which such a network answers.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const loginInClear = auth !== undefined && !implicitTls && !isLoopbackAddress(host)
  return {
    host,
    port: url.port === '' ? (implicitTls ? 465 : 587) : Number(url.port),
    implicitTls,
    requireTls: tls === 'required' || loginInClear,
    ...(caFile !== null && { ca: readCa(caFile, source, readFile) }),
    ...(auth && { auth }),
    from: sender,
  }
}

/** An address of this machine written as one (127.0.0.0/8, ::1), never a name that must be looked up. */
function isLoopbackAddress(host: string): boolean {
  if (isIP(host) === 6) return host === '::1'
  return isIP(host) === 4 && host.startsWith('127.')
}

/** One line for the start banner: where mail goes and how, never who logs in. */
export function describeSmtp(settings: SmtpSettings): string {
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host
  const scheme = settings.implicitTls ? 'smtps' : 'smtp'
  const tls = settings.implicitTls
    ? 'TLS'
    : settings.requireTls
      ? 'STARTTLS required'
      : 'STARTTLS when the server offers it'
  return `Mail goes over SMTP to ${scheme}://${host}:${settings.port} (${tls}), from ${settings.from}.`
}

function parseUrl(value: string, source: string): URL {
  const refuse = (why: string) => new Error(`Failed to start: ${source} ${why}.`)
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw refuse('is not a URL; give one like smtp://mail.example:587 or smtps://mail.example')
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw refuse('must start with smtp:// (STARTTLS) or smtps:// (TLS)')
  if (url.hostname === '') throw refuse('names no host')
  if ((url.pathname !== '' && url.pathname !== '/') || url.hash !== '')
    throw refuse('takes a host and a port, and no path')
  if ([...url.searchParams.keys()].some((key) => !QUERY.has(key)))
    throw refuse('takes only ?tls=required and ?ca=<file> after the host')
  return url
}

function readCredentials(url: URL, source: string, env: Record<string, string | undefined>) {
  const inUrl = url.username !== '' || url.password !== ''
  if (inUrl && source === '--smtp')
    throw new Error(
      'Failed to start: --smtp carries credentials, which the command line shows to anyone on the machine; put them in SMTP_USER and SMTP_PASSWORD.',
    )
  const user = env.SMTP_USER || undefined
  const pass = env.SMTP_PASSWORD || undefined
  if (inUrl && (user !== undefined || pass !== undefined))
    throw new Error('Failed to start: SMTP credentials are given twice (SMTP_URL and SMTP_USER); keep one.')
  if (inUrl) {
    if (url.username === '' || url.password === '')
      throw new Error(
        'Failed to start: SMTP_URL names a user without a password, or a password without a user.',
      )
    try {
      return { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
    } catch {
      throw new Error('Failed to start: SMTP_URL has a broken %-escape in its user part.')
    }
  }
  if ((user === undefined) !== (pass === undefined))
    throw new Error('Failed to start: SMTP_USER and SMTP_PASSWORD go together; give both or neither.')
  return user !== undefined && pass !== undefined ? { user, pass } : undefined
}

function readCa(file: string, source: string, readFile: (path: string) => string): string {
  let pem: string
  try {
    pem = readFile(file)
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unknown error'
    throw new Error(`Failed to start: the ?ca= file of ${source} cannot be read (${code}).`, { cause: error })
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----'))
    throw new Error(`Failed to start: the ?ca= file of ${source} holds no PEM certificate.`)
  return pem
}
