// --smtp, SMTP_URL, SMTP_USER, SMTP_PASSWORD, --smtp-from and MAIL_FROM as main.ts reads them (docs/mail.md): the
// flag wins, credentials come from the environment only, and no refusal repeats the URL or a credential.
import { expect, test } from 'vitest'
import { DEFAULT_MAIL_FROM, describeSmtp, parseSmtp, type SmtpInput } from './smtp-values.ts'

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'
const FILES: Record<string, string> = { '/certs/ca.pem': PEM, '/certs/key.txt': 'not a certificate' }

function read(input: Partial<SmtpInput>) {
  return parseSmtp({
    flag: undefined,
    from: undefined,
    env: {},
    readFile: (path) => {
      const text = FILES[path]
      if (text === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' })
      return text
    },
    ...input,
  })
}

const BASE = { implicitTls: false, requireTls: false, from: DEFAULT_MAIL_FROM }

test.each([
  ['no URL at all', {}, undefined],
  ['an empty SMTP_URL, as an env file leaves it', { env: { SMTP_URL: '' } }, undefined],
  [
    'smtp:// on 587 by default',
    { flag: 'smtp://mail.example' },
    { ...BASE, host: 'mail.example', port: 587 },
  ],
  [
    'smtps:// on 465 by default',
    { flag: 'smtps://mail.example' },
    { ...BASE, host: 'mail.example', port: 465, implicitTls: true },
  ],
  [
    'a port, ?tls=required and ?ca=',
    { flag: 'smtp://mail.example:2525/?tls=required&ca=/certs/ca.pem' },
    { ...BASE, host: 'mail.example', port: 2525, requireTls: true, ca: PEM },
  ],
  ['an IPv6 host', { flag: 'smtp://[::1]:25' }, { ...BASE, host: '::1', port: 25 }],
  [
    'the flag over SMTP_URL',
    { flag: 'smtp://flag.example', env: { SMTP_URL: 'smtp://env.example' } },
    { ...BASE, host: 'flag.example', port: 587 },
  ],
  [
    'credentials from SMTP_USER and SMTP_PASSWORD, which require STARTTLS on smtp://',
    { env: { SMTP_URL: 'smtp://mail.example', SMTP_USER: 'mailer', SMTP_PASSWORD: 'pw' } },
    { ...BASE, host: 'mail.example', port: 587, requireTls: true, auth: { user: 'mailer', pass: 'pw' } },
  ],
  [
    'credentials for a relay on this machine, where nothing between can strip STARTTLS',
    { env: { SMTP_URL: 'smtp://mailer:pw@127.0.0.1:2525' } },
    { ...BASE, host: '127.0.0.1', port: 2525, auth: { user: 'mailer', pass: 'pw' } },
  ],
  [
    'credentials for ::1',
    { env: { SMTP_URL: 'smtp://mailer:pw@[::1]:2525' } },
    { ...BASE, host: '::1', port: 2525, auth: { user: 'mailer', pass: 'pw' } },
  ],
  [
    'credentials in SMTP_URL, %-escapes read',
    { env: { SMTP_URL: 'smtps://me%40corp:p%40ss@mail.example' } },
    { ...BASE, host: 'mail.example', port: 465, implicitTls: true, auth: { user: 'me@corp', pass: 'p@ss' } },
  ],
  [
    '--smtp-from over MAIL_FROM',
    { flag: 'smtp://mail.example', from: 'Shop <shop@example.com>', env: { MAIL_FROM: 'x@example.com' } },
    { ...BASE, host: 'mail.example', port: 587, from: 'Shop <shop@example.com>' },
  ],
  [
    'MAIL_FROM',
    { flag: 'smtp://mail.example', env: { MAIL_FROM: 'no-reply@example.com' } },
    { ...BASE, host: 'mail.example', port: 587, from: 'no-reply@example.com' },
  ],
] as const)('reads %s', (_, input, expected) => {
  expect(read(input)).toEqual(expected)
})

test.each([
  ['an empty flag', { flag: '' }, '--smtp is empty'],
  ['no URL', { flag: 'mail.example:25' }, '--smtp must start with smtp:// (STARTTLS) or smtps:// (TLS)'],
  ['another scheme', { env: { SMTP_URL: 'http://mail.example' } }, 'SMTP_URL must start with smtp://'],
  ['a path', { flag: 'smtp://mail.example/inbox' }, '--smtp takes a host and a port, and no path'],
  [
    'an unknown setting',
    { flag: 'smtp://mail.example?pool=true' },
    'takes only ?tls=required and ?ca=<file>',
  ],
  [
    'another tls value',
    { flag: 'smtp://mail.example?tls=off' },
    '--smtp takes ?tls=required or no tls setting',
  ],
  ['a CA file that is missing', { flag: 'smtp://m.example?ca=/nope' }, 'cannot be read (ENOENT)'],
  [
    'a CA file with no certificate',
    { flag: 'smtp://m.example?ca=/certs/key.txt' },
    'holds no PEM certificate',
  ],
  ['--smtp-from alone', { from: 'a@example.com' }, '--smtp-from has no use without --smtp or SMTP_URL'],
  [
    'a sender that is no address',
    { flag: 'smtp://m.example', from: 'nobody' },
    '--smtp-from is not an address',
  ],
  [
    'two senders',
    { flag: 'smtp://m.example', from: 'Shop, a@example.com <b@example.com>' },
    '--smtp-from is not an address',
  ],
  [
    'a sender with a line break',
    { flag: 'smtp://m.example', env: { MAIL_FROM: 'A\r\nBcc: x@y.z <a@example.com>' } },
    'MAIL_FROM is not an address',
  ],
] as const)('refuses %s in one line', (_, input, message) => {
  expect(() => read(input)).toThrow(message)
})

test.each([
  [
    'credentials on the command line',
    { flag: 'smtp://mailer:hunter2-secret@m.example' },
    'SMTP_USER and SMTP_PASSWORD',
  ],
  [
    'credentials given twice',
    { env: { SMTP_URL: 'smtp://mailer:hunter2-secret@m.example', SMTP_USER: 'x', SMTP_PASSWORD: 'y' } },
    'given twice',
  ],
  [
    'a user without a password',
    { env: { SMTP_URL: 'smtp://hunter2-secret@m.example' } },
    'without a password',
  ],
  [
    'a password without a user',
    { env: { SMTP_URL: 'smtp://m.example', SMTP_PASSWORD: 'hunter2-secret' } },
    'go together',
  ],
  ['a broken URL', { env: { SMTP_URL: 'smtp://mailer:hunter2-secret@[m.example' } }, 'SMTP_URL is not a URL'],
  ['a broken escape', { env: { SMTP_URL: 'smtp://mailer:hunter2-secret%zz@m.example' } }, 'broken %-escape'],
] as const)('refuses %s without repeating the secret', (_, input, message) => {
  let thrown: unknown
  try {
    read(input)
  } catch (error) {
    thrown = error
  }
  expect(String(thrown)).toContain(message)
  expect(String(thrown)).toMatch(/^Error: Failed to start: .*\.$/)
  expect(String(thrown)).not.toContain('hunter2')
})

test.each([
  [
    { host: 'mail.example', port: 587, implicitTls: false, requireTls: false },
    'smtp://mail.example:587 (STARTTLS when the server offers it)',
  ],
  [
    { host: 'mail.example', port: 587, implicitTls: false, requireTls: true },
    'smtp://mail.example:587 (STARTTLS required)',
  ],
  [{ host: '::1', port: 465, implicitTls: true, requireTls: false }, 'smtps://[::1]:465 (TLS)'],
] as const)('the banner names where mail goes, never the login: %o', (settings, where) => {
  const line = describeSmtp({ ...settings, from: 'a@example.com', auth: { user: 'mailer', pass: 'hunter2' } })
  expect(line).toBe(`Mail goes over SMTP to ${where}, from a@example.com.`)
})

// nodemailer looks a name up in DNS before /etc/hosts: a network that strips STARTTLS answers DNS too.
test.each([
  'smtp://mailer:pw@localhost:2525',
  'smtp://mailer:pw@127.000.000.001:2525',
  'smtp://mailer:pw@127.0.0.1.nip.io:2525',
  'smtp://mailer:pw@0.0.0.0:2525',
  'smtp://mailer:pw@[::ffff:127.0.0.1]:2525',
])('a login to %s requires STARTTLS: only an address of this machine is spared', (url) => {
  expect(read({ env: { SMTP_URL: url } })?.requireTls).toBe(true)
})
