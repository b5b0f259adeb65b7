// Mail over SMTP (docs/mail.md), with the real createApp sending to an SMTP server the test starts on 127.0.0.1: every
// mail of sign-up, code sign-in and recovery arrives with the /__mock mailbox's code, in a text and an HTML body, to
// its address, and nothing else does; a 451 is tried again; a 550 is one log line and the calls answer as documented.
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { components } from '#api/control.gen.ts'
import { createManualTimer, type ManualTimer } from '../../mock-server/testing/manual-timer.ts'
import {
  startSmtpCapture,
  type CaptureOptions,
  type SmtpCapture,
} from '../../mock-server/testing/smtp-capture.ts'
import { createSmtpOutbox } from '#mock-server/control/smtp-mail.ts'
import type { AppOptions } from '#mock-server/app.ts'
import {
  advanceClock,
  bearer,
  PASSWORD,
  readCode,
  requireOwnServer,
  type TestServer,
  uniqueEmail,
  useTestServer,
} from '#contracts/fixtures.ts'

type Mail = components['schemas']['Mail']

/** One capture, timer and log per test, made before the server that sends to it. */
function useSmtpServer(capture: CaptureOptions = {}): { server: TestServer; current: () => Sent } {
  let sent: Sent | undefined
  beforeEach(async () => {
    sent = { capture: await startSmtpCapture(capture), timer: createManualTimer(), lines: [] }
  })
  afterEach(async () => {
    await sent?.capture.close()
  })
  const server = useTestServer((): AppOptions => {
    const { capture: smtp, timer, lines } = sent!
    return {
      smtp: {
        host: '127.0.0.1',
        port: smtp.port,
        implicitTls: false,
        requireTls: false,
        from: 'no-reply@example.test',
      },
      openSmtp: (settings, report) => createSmtpOutbox(settings, report, { timer }),
      logError: (line) => lines.push(line),
    }
  })
  return { server, current: () => sent! }
}

interface Sent {
  capture: SmtpCapture
  timer: ManualTimer
  lines: string[]
}

/** What a mail says that both sides can compare: address, subject and code. */
const gist = (mail: { to: string; subject: string; code?: string | undefined }) =>
  `${mail.to} | ${mail.subject} | ${mail.code ?? '-'}`

describe('every mail the product sends arrives over SMTP, and nothing else', () => {
  const { server, current } = useSmtpServer()

  test('sign-up, a sign-up for a verified address, code sign-in, recovery and both password changes', async () => {
    requireOwnServer('needs a server that sends to the test’s SMTP capture')
    const { api } = server
    const email = uniqueEmail('smtp')
    await api.post('/api/auth/signup').send({ name: 'Ada', email, password: PASSWORD }).expect(202)
    const signupCode = await readCode(api, email, 'signup')
    await api.post('/api/auth/otp/verify').send({ email, code: signupCode, purpose: 'signup' }).expect(200)
    // Past the cooldown, a sign-up for the verified address tells its owner, with no code.
    await advanceClock(api, 31_000)
    await api.post('/api/auth/signup').send({ name: 'Eve', email, password: PASSWORD }).expect(202)
    await advanceClock(api, 31_000)
    await api.post('/api/auth/otp/send').send({ email, purpose: 'login' }).expect(202)
    const loginCode = await readCode(api, email, 'login')
    await api.post('/api/auth/otp/verify').send({ email, code: loginCode, purpose: 'login' }).expect(200)
    await api.post('/api/auth/forgot').send({ email }).expect(202)
    const resetCode = await readCode(api, email, 'reset')
    const verified = await api
      .post('/api/auth/otp/verify')
      .send({ email, code: resetCode, purpose: 'reset' })
      .expect(200)
    await api
      .post('/api/auth/update_password')
      .send({ reset_token: verified.body.reset_token, password: `${PASSWORD} anew` })
      .expect(200)
    const signedIn = await api
      .post('/api/auth/login')
      .send({ email, password: `${PASSWORD} anew` })
      .expect(200)
    await api
      .post('/api/auth/update_password')
      .set(bearer(signedIn.body.token))
      .send({ current_password: `${PASSWORD} anew`, password: `${PASSWORD} once more` })
      .expect(200)
    // Addresses with no account get no mail, over SMTP or anywhere.
    await api
      .post('/api/auth/forgot')
      .send({ email: uniqueEmail('ghost') })
      .expect(202)
    await api
      .post('/api/auth/otp/send')
      .send({ email: uniqueEmail('ghost'), purpose: 'login' })
      .expect(202)

    const mailbox: Mail[] = await server.mock.mailbox()
    expect(mailbox.map((mail) => mail.purpose)).toEqual([
      'signup',
      'account_exists',
      'login',
      'reset',
      'password_changed',
      'password_changed',
    ])
    const { capture, lines } = current()
    await capture.until(() => capture.mails.length >= mailbox.length, `${mailbox.length} mails`)
    await server.app.core.flush()
    const codeOf = (text: string) => /\b(\d{6})\b/.exec(text)?.[1]
    const arrived = capture.mails.map((mail) => ({ ...mail, code: codeOf(mail.text) }))
    expect(arrived.map(gist).sort()).toEqual(mailbox.map(gist).sort())
    for (const mail of arrived) {
      expect(mail.to).toBe(email)
      expect(mail.from).toBe('no-reply@example.test')
      expect(mail.html).toMatch(/<html/)
      expect(mail.text.length).toBeGreaterThan(0)
      if (mail.code) expect(mail.html).toContain(`<strong>${mail.code}</strong>`)
    }
    expect(capture.attempts()).toBe(mailbox.length)
    expect(lines).toEqual([])
  })
})

describe('a mail the SMTP server answers 451 is sent again when its retry is due', () => {
  const { server, current } = useSmtpServer({ answer: (n) => (n === 1 ? 451 : undefined) })

  test('the sign-up code arrives on the second attempt, and the call answered 202 at once', async () => {
    requireOwnServer('needs a server that sends to the test’s SMTP capture')
    const email = uniqueEmail('retry')
    const res = await server.api.post('/api/auth/signup').send({ name: 'Ada', email, password: PASSWORD })
    expect(res.status).toBe(202)
    const { capture, timer, lines } = current()
    await timer.untilPending(1)
    expect(capture.mails).toEqual([])
    timer.fireNext()
    await capture.until(() => capture.mails.length === 1, 'the mail on its retry')
    expect(capture.mails[0]!.to).toBe(email)
    expect(capture.mails[0]!.text).toContain(await readCode(server.api, email, 'signup'))
    expect(lines).toEqual([])
  })
})

describe('an SMTP server that answers 550 to every mail', () => {
  const { server, current } = useSmtpServer({ answer: () => 550 })

  test('the calls answer as documented, the same for a known and an unknown address, and each mail is one line', async () => {
    requireOwnServer('needs a server that sends to the test’s SMTP capture')
    const { api } = server
    const email = uniqueEmail('refused')
    const signup = await api.post('/api/auth/signup').send({ name: 'Ada', email, password: PASSWORD })
    expect([signup.status, signup.body]).toEqual([202, { accepted: true, resend_after: 30 }])
    const known = await api.post('/api/auth/forgot').send({ email: 'grace@example.com' })
    const unknown = await api.post('/api/auth/forgot').send({ email: uniqueEmail('ghost') })
    expect([known.status, known.body]).toEqual([202, { accepted: true, resend_after: 30 }])
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body])
    const { capture, timer, lines } = current()
    await capture.until(() => capture.attempts() === 2, 'both mails refused')
    await server.app.core.flush()
    expect(lines).toHaveLength(2)
    for (const line of lines)
      expect(line).toMatch(
        /^Failed to deliver a mail over SMTP: the server answered 550 \(EMESSAGE\), refused after 1 attempt \(a (sign-up|password reset) code mail of \S+\)\.$/,
      )
    const codes = (await server.mock.mailbox()).map((mail) => mail.code!)
    for (const secret of [email, 'grace@example.com', ...codes])
      expect(lines.join('\n')).not.toContain(secret)
    expect(timer.history).toEqual([])
    expect(capture.mails).toEqual([])
  })
})
