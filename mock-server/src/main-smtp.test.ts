// Mail over SMTP as `npm run mock` takes it (docs/mail.md): the login from SMTP_URL is used and never printed, the
// code reaches the SMTP server and not the output, and credentials on the command line stop the start.
import { expect, test } from 'vitest'
import { runMain } from '../testing/run-main.ts'
import { startSmtpCapture } from '../testing/smtp-capture.ts'

const LISTENING = /listening on (http:\/\/\S+)/
const SECRET = 'smtp-pass-for-the-test'

test('--help names --smtp and --smtp-from', async () => {
  const { output, code } = await runMain(['--help'], /--quiet/)
  expect(output).toContain('--smtp <url>')
  expect(output).toContain('--smtp-from <addr>')
  expect(await code).toBe(0)
}, 30_000)

test('credentials in --smtp stop the start (exit 2) without being printed', async () => {
  const refused = await runMain(
    ['--port', '0', '--web', 'none', '--smtp', `smtp://mailer:${SECRET}@127.0.0.1:2525`],
    /Failed to start|listening on/,
  )
  expect(refused.output).toMatch(/Failed to start: --smtp carries credentials/)
  expect(refused.output).not.toContain(SECRET)
  expect(await refused.code).toBe(2)
}, 30_000)

test('--production with SMTP_URL: the banner names host and port only, and a sign-up code arrives over SMTP, logged in, and works', async () => {
  const capture = await startSmtpCapture({ login: { user: 'mailer', pass: SECRET } })
  const server = await runMain(
    ['--port', '0', '--web', 'none', '--production', '--smtp-from', 'Auth Shell <no-reply@example.test>'],
    /Mail goes over SMTP.*\n/,
    { SMTP_URL: `smtp://mailer:${SECRET}@127.0.0.1:${capture.port}` },
  )
  try {
    const origin = LISTENING.exec(server.output)![1]!
    expect(server.output).toContain(
      `Mail goes over SMTP to smtp://127.0.0.1:${capture.port} (STARTTLS when the server offers it), from Auth Shell <no-reply@example.test>.`,
    )
    const email = 'smtp-main@example.test'
    const post = (path: string, body: object) =>
      fetch(`${origin}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    const signup = await post('/api/auth/signup', {
      name: 'Ada',
      email,
      password: 'a long enough passphrase',
    })
    expect(signup.status).toBe(202)
    await capture.until(() => capture.mails.length === 1, 'the sign-up mail')
    const [mail] = capture.mails
    expect(mail).toMatchObject({ to: email, user: 'mailer', subject: 'Confirm your e-mail address' })
    const code = /\b(\d{6})\b/.exec(mail!.text)![1]!
    expect(mail!.html).toContain(`<strong>${code}</strong>`)
    expect((await post('/api/auth/otp/verify', { email, code, purpose: 'signup' })).status).toBe(200)
    expect(server.read()).not.toContain(SECRET)
    expect(server.read()).not.toContain(code)
  } finally {
    server.stop()
    expect(await server.code).toBe(0)
    await capture.close()
  }
}, 60_000)
