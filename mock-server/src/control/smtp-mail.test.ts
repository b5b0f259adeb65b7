// Mail over SMTP (docs/mail.md) against a real SMTP server the test starts: both bodies with the code, the sender and
// the address; a 451 tried again, a 550 reported once; TLS from the start or through STARTTLS, with the certificate
// checked; the login from the settings.
import { once } from 'node:events'
import { createServer, type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, test } from 'vitest'
import { createManualTimer } from '../../testing/manual-timer.ts'
import {
  createTestCertificate,
  startSmtpCapture,
  type CaptureOptions,
  type SmtpCapture,
} from '../../testing/smtp-capture.ts'
import type { Mail } from './mailbox.ts'
import { classifySmtpError, createSmtpOutbox, type SmtpSettings } from './smtp-mail.ts'

const MAIL: Mail = {
  to: 'ada@example.com',
  subject: 'Your sign-in code',
  purpose: 'login',
  code: '482913',
  sent_at: '2026-01-02T03:04:05.678Z',
}
const FROM = 'Auth Shell <no-reply@example.com>'

const open: Array<{ close(): Promise<void> }> = []
afterEach(async () => {
  for (const piece of open.splice(0).reverse()) await piece.close()
})

async function setUp(capture: CaptureOptions = {}, settings: Partial<SmtpSettings> = {}) {
  const server = await startSmtpCapture(capture)
  open.push(server)
  const timer = createManualTimer()
  const lines: string[] = []
  const smtp = createSmtpOutbox(
    { host: '127.0.0.1', port: server.port, implicitTls: false, requireTls: false, from: FROM, ...settings },
    (line) => lines.push(line),
    { timer },
  )
  open.push(smtp)
  return { server, smtp, timer, lines }
}

const arrived = (server: SmtpCapture, count: number) =>
  server.until(() => server.mails.length >= count, `${count} mails`)

test('a mail arrives from the sender, to its address, with its subject and the code in a text and an HTML body', async () => {
  const { server, smtp, lines } = await setUp()
  smtp.deliver(MAIL)
  await smtp.flush()
  expect(server.mails).toHaveLength(1)
  const [mail] = server.mails
  expect(mail).toMatchObject({
    from: '"Auth Shell" <no-reply@example.com>',
    to: MAIL.to,
    subject: MAIL.subject,
    secure: false,
  })
  expect(mail!.text).toContain('482913')
  expect(mail!.html).toContain('<strong>482913</strong>')
  expect(mail!.headers['auto-submitted']).toBe('auto-generated')
  expect(lines).toEqual([])
})

test('a mail the server answers 451 is sent again when its retry is due, and arrives once', async () => {
  const { server, smtp, timer, lines } = await setUp({ answer: (n) => (n === 1 ? 451 : undefined) })
  smtp.deliver(MAIL)
  await timer.untilPending(1)
  expect(server.mails).toEqual([])
  expect(timer.pending()).toEqual([10_000])
  timer.fireNext()
  await arrived(server, 1)
  await smtp.flush()
  expect(server.attempts()).toBe(2)
  expect(server.mails.map((mail) => mail.to)).toEqual([MAIL.to])
  expect(lines).toEqual([])
})

test('a mail the server answers 550 is reported in one line, without address or code, and never sent again', async () => {
  const { server, smtp, timer, lines } = await setUp({ answer: () => 550 })
  smtp.deliver(MAIL)
  await smtp.flush()
  expect(lines).toEqual([
    'Failed to deliver a mail over SMTP: the server answered 550 (EMESSAGE), refused after 1 attempt (a sign-in code mail of 2026-01-02T03:04:05.678Z).',
  ])
  expect(timer.history).toEqual([])
  expect(server.attempts()).toBe(1)
})

test('the login comes from the settings', async () => {
  const login = { user: 'mailer', pass: 's3cret-pass' }
  const { server, smtp } = await setUp({ login }, { auth: login })
  smtp.deliver(MAIL)
  await smtp.flush()
  expect(server.mails.map((mail) => mail.user)).toEqual(['mailer'])
})

const certificate = createTestCertificate()

describe.skipIf(certificate === null)('TLS (a certificate made by openssl for the test)', () => {
  const tls = certificate!

  test('smtps:// speaks TLS from the start, trusting the CA the settings name', async () => {
    const { server, smtp } = await setUp(
      { tls: { ...tls, implicit: true } },
      { implicitTls: true, ca: tls.cert },
    )
    smtp.deliver(MAIL)
    await smtp.flush()
    expect(server.mails.map((mail) => mail.secure)).toEqual([true])
  })

  test('smtp:// upgrades with STARTTLS when the server offers it', async () => {
    const { server, smtp } = await setUp({ tls }, { ca: tls.cert })
    smtp.deliver(MAIL)
    await smtp.flush()
    expect(server.mails.map((mail) => mail.secure)).toEqual([true])
  })

  test('a certificate nobody vouches for stops the mail: it is tried again, never sent', async () => {
    const { server, smtp, timer, lines } = await setUp(
      { tls: { ...tls, implicit: true } },
      { implicitTls: true },
    )
    smtp.deliver(MAIL)
    await timer.untilPending(1)
    await smtp.close()
    expect(server.mails).toEqual([])
    expect(lines).toEqual([
      'Failed to deliver a mail over SMTP: the connection failed (ESOCKET, DEPTH_ZERO_SELF_SIGNED_CERT), given up at shutdown after 2 attempts (a sign-in code mail of 2026-01-02T03:04:05.678Z).',
    ])
  })
})

test('?tls=required: a server without STARTTLS gets no mail, and the refusal is reported', async () => {
  const { server, smtp, lines } = await setUp({}, { requireTls: true })
  smtp.deliver(MAIL)
  await smtp.flush()
  expect(server.attempts()).toBe(0)
  expect(lines).toEqual([
    'Failed to deliver a mail over SMTP: the server answered 500 (ETLS), refused after 1 attempt (a sign-in code mail of 2026-01-02T03:04:05.678Z).',
  ])
})

test.each([
  [{ responseCode: 421, code: 'EENVELOPE' }, false, 'the server answered 421 (EENVELOPE)'],
  [{ responseCode: 554, code: 'EMESSAGE' }, true, 'the server answered 554 (EMESSAGE)'],
  [{ code: 'ESOCKET', originalCode: 'ECONNREFUSED' }, false, 'the connection failed (ESOCKET, ECONNREFUSED)'],
  [{ code: 'ETIMEDOUT' }, false, 'the connection failed (ETIMEDOUT)'],
  [new Error('odd'), false, 'the connection failed (no error code)'],
  [{ code: 'not a code <ada@example.com>' }, false, 'the connection failed (no error code)'],
] as const)('classifySmtpError(%o): permanent %s, %s', (error, permanent, reason) => {
  expect(classifySmtpError(error)).toEqual({ permanent, reason })
})

/**
 * A server that never ends an answer: silent, or greeting and then trickling a continuation line (`250-`) every
 * 100 ms, which resets every idle time-out nodemailer has. Counts the connections still open.
 */
async function stuckServer(mode: 'silent' | 'trickle') {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on('error', () => {})
    socket.on('close', () => sockets.delete(socket))
    if (mode === 'silent') return
    socket.write('220 stuck.example ESMTP\r\n')
    socket.once('data', () => {
      const trickle = setInterval(() => socket.write('250-still thinking\r\n'), 100)
      socket.on('close', () => clearInterval(trickle))
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  open.push({
    close: async () => {
      for (const socket of sockets) socket.destroy()
      await new Promise((closed) => server.close(closed))
    },
  })
  const until = async (check: () => boolean) => {
    while (!check()) await new Promise((resolve) => setTimeout(resolve, 20))
  }
  return { port: (server.address() as AddressInfo).port, open: () => sockets.size, until }
}

test('an attempt past its deadline closes its connection and is tried again, though the server keeps talking', async () => {
  const server = await stuckServer('trickle')
  const timer = createManualTimer()
  const lines: string[] = []
  const smtp = createSmtpOutbox(
    { host: '127.0.0.1', port: server.port, implicitTls: false, requireTls: false, from: FROM },
    (line) => lines.push(line),
    { timer, attemptDeadlineMs: 1_000 },
  )
  open.push(smtp)
  smtp.deliver(MAIL)
  await server.until(() => server.open() === 1)
  await timer.untilPending(1)
  await server.until(() => server.open() === 0)
  expect(timer.pending()).toEqual([10_000])
  await smtp.close()
  expect(lines).toEqual([
    'Failed to deliver a mail over SMTP: no answer within 1 s, given up at shutdown after 2 attempts (a sign-in code mail of 2026-01-02T03:04:05.678Z).',
  ])
  await server.until(() => server.open() === 0)
})

test("at the shutdown's deadline, mails a stuck server holds are reported, and their connections closed", async () => {
  const server = await stuckServer('silent')
  const lines: string[] = []
  const smtp = createSmtpOutbox(
    { host: '127.0.0.1', port: server.port, implicitTls: false, requireTls: false, from: FROM },
    (line) => lines.push(line),
    { timer: createManualTimer(), closeDeadlineMs: 500 },
  )
  for (let i = 0; i < 3; i += 1) smtp.deliver(MAIL)
  await server.until(() => server.open() === 2)
  await smtp.close()
  expect(lines.map((line) => line.replace(/ \(a sign-in.*/, '')).sort()).toEqual([
    "Failed to deliver a mail over SMTP: no answer by the shutdown's 0.5 s, given up at shutdown after 1 attempt",
    "Failed to deliver a mail over SMTP: no answer by the shutdown's 0.5 s, given up at shutdown after 1 attempt",
    'Failed to deliver a mail over SMTP: the shutdown came before its turn, given up at shutdown after 0 attempts',
  ])
  await server.until(() => server.open() === 0)
})
