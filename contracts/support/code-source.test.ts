// How the suite reads a target's codes without /__mock: from the mail it sent to the suite's SMTP capture, or an adapter.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createTransport } from 'nodemailer'
import { afterEach, describe, expect, test } from 'vitest'
import { renderMail } from '#mock-server/control/mail-content.ts'
import { CODE_MAIL_SUBJECTS } from '#mock-server/shared/constants.ts'
import { startSmtpCapture, type SmtpCapture } from '../../mock-server/testing/smtp-capture.ts'
import {
  countCapturedCodes,
  createCodeSource,
  findCapturedCode,
  loadCodeAdapter,
  mailedCodeOf,
} from '#contracts/support/code-source.ts'
import { codeOfMail, mailFileOf, readSmtpPort } from '#contracts/support/mail-capture.ts'

const EMAIL = 'Ada@Example.test'
const dirs: string[] = []
const captures: SmtpCapture[] = []
afterEach(async () => {
  await Promise.all(captures.splice(0).map((capture) => capture.close()))
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'code-source-'))
  dirs.push(dir)
  return dir
}

/** A capture that writes each code mail to `dir` as the suite's global setup does. */
async function captureInto(dir: string): Promise<SmtpCapture> {
  const capture = await startSmtpCapture({
    onMail(mail) {
      const found = codeOfMail(mail)
      if (found)
        writeFileSync(mailFileOf(dir, mail.to), `${JSON.stringify({ ...found, receivedAt: Date.now() })}\n`, {
          flag: 'a',
        })
    },
  })
  captures.push(capture)
  return capture
}

/** Sends the product's own sign-up mail carrying `code` over SMTP, as a target does. */
async function mailCode(port: number, code: string): Promise<void> {
  const mail = {
    to: 'ada@example.test',
    subject: CODE_MAIL_SUBJECTS.signup,
    purpose: 'signup' as const,
    code,
    sent_at: new Date().toISOString(),
  }
  const { text, html } = renderMail(mail)
  const transport = createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true })
  await transport.sendMail({ from: 'no-reply@localhost', to: mail.to, subject: mail.subject, text, html })
  transport.close()
}

describe('codes from the mail a target sent', () => {
  test("reads the code of the product's own mail, by its subject, at the address in any case", async () => {
    const dir = tempDir()
    const capture = await captureInto(dir)
    await mailCode(capture.port, '123456')
    const source = createCodeSource('the test capture', findCapturedCode(dir))
    expect(await source.latestCode(EMAIL, 'signup')).toBe('123456')
  })

  test('after a call that asked for a code, waits for a mail newer than it: a resend never yields the old code', async () => {
    const dir = tempDir()
    const capture = await captureInto(dir)
    await mailCode(capture.port, '111111')
    // The call comes after the old mail: a later millisecond, as a mail of the same one counts as the call's own.
    const received = Date.now()
    while (Date.now() === received) await new Promise((tick) => setImmediate(tick))
    const source = createCodeSource('the test capture', findCapturedCode(dir), 10_000)
    source.noteSent(EMAIL, 'signup', Date.now())
    const read = source.latestCode(EMAIL, 'signup')
    await mailCode(capture.port, '222222')
    expect(await read).toBe('222222')
  })

  test('counts the codes of a purpose captured for an address, in any case', async () => {
    const dir = tempDir()
    const count = countCapturedCodes(dir)
    expect(count(EMAIL, 'signup')).toBe(0)
    const capture = await captureInto(dir)
    await mailCode(capture.port, '111111')
    await mailCode(capture.port, '222222')
    // The transport is done once the capture has taken the mail: both are counted, no other purpose.
    expect(count(EMAIL, 'signup')).toBe(2)
    expect(count('ada@example.test', 'signup')).toBe(2)
    expect(count(EMAIL, 'reset')).toBe(0)
  })

  test('a code that never comes fails the read with the address, the purpose and where it looked', async () => {
    const source = createCodeSource('the test capture', findCapturedCode(tempDir()), 200)
    await expect(source.latestCode(EMAIL, 'reset')).rejects.toThrow(
      `no reset mail for ${EMAIL} came within 0.2 s (the test capture)`,
    )
  })

  test('a mail without a code, or of another subject, gives none', () => {
    expect(codeOfMail({ subject: 'You already have an account', text: 'Sign in at 123456' })).toBeNull()
    expect(
      codeOfMail({ subject: CODE_MAIL_SUBJECTS.reset, text: 'no code here, 1234567 is too long' }),
    ).toBeNull()
    expect(codeOfMail({ subject: CODE_MAIL_SUBJECTS.login, text: 'Your code:\n\n654321\n\n' })).toEqual({
      purpose: 'login',
      code: '654321',
    })
  })

  test('CONTRACT_SMTP_PORT is a port or unset', () => {
    expect(readSmtpPort(undefined)).toBeNull()
    expect(readSmtpPort(' 2525 ')).toBe(2525)
    for (const bad of ['0', '65536', 'smtp://127.0.0.1:25', '25.5'])
      expect(() => readSmtpPort(bad)).toThrow('CONTRACT_SMTP_PORT is a port from 1 to 65535')
  })
})

describe('which calls ask the target to mail a code', () => {
  test.each([
    [
      'post',
      '/api/auth/signup',
      { email: 'a@b.test', name: 'A', password: 'x' },
      { email: 'a@b.test', purpose: 'signup' },
    ],
    ['post', '/api/auth/forgot', { email: 'a@b.test' }, { email: 'a@b.test', purpose: 'reset' }],
    [
      'post',
      '/api/auth/otp/send',
      { email: 'a@b.test', purpose: 'login' },
      { email: 'a@b.test', purpose: 'login' },
    ],
    ['post', '/api/auth/otp/send', { email: 'a@b.test', purpose: 'elsewhere' }, null],
    ['post', '/api/auth/login', { email: 'a@b.test', password: 'x' }, null],
    ['get', '/api/auth/signup', { email: 'a@b.test' }, null],
    ['post', '/api/auth/signup', 'not json', null],
  ] as const)('%s %s %j', (method, path, body, expected) => {
    expect(mailedCodeOf(method, path, body)).toEqual(expected)
  })
})

describe('CONTRACT_CODE_ADAPTER', () => {
  test('loads a module whose default export answers the newest code since a time', async () => {
    const file = join(tempDir(), 'adapter.mjs')
    writeFileSync(
      file,
      'export default ({ email, purpose, since }) => email === "a@b.test" && purpose === "login" ? String(since ?? 999999).padStart(6, "0") : null\n',
    )
    const source = createCodeSource('the adapter', await loadCodeAdapter(file), 200)
    expect(await source.latestCode('a@b.test', 'login')).toBe('999999')
    source.noteSent('a@b.test', 'login', 42)
    expect(await source.latestCode('a@b.test', 'login')).toBe('000042')
    await expect(source.latestCode('a@b.test', 'reset')).rejects.toThrow(
      'no reset mail for a@b.test came within',
    )
  })

  test('an adapter that hangs, or answers what is no code, fails the read with its own message', async () => {
    const hangs = createCodeSource('the hanging adapter', () => new Promise<never>(() => undefined), 200)
    await expect(hangs.latestCode('a@b.test', 'login')).rejects.toThrow(
      'the hanging adapter did not answer in time',
    )
    const garbage = createCodeSource('the adapter', () => 'not-a-code', 200)
    await expect(garbage.latestCode('a@b.test', 'login')).rejects.toThrow(
      'the adapter answered "not-a-code", not six digits or null',
    )
  })

  test('refuses a file that is missing or exports no function', async () => {
    const file = join(tempDir(), 'not-an-adapter.mjs')
    writeFileSync(file, 'export default 42\n')
    await expect(loadCodeAdapter(file)).rejects.toThrow('must export as default a function')
    await expect(loadCodeAdapter(join(tempDir(), 'missing.mjs'))).rejects.toThrow(
      'CONTRACT_CODE_ADAPTER names no file',
    )
  })
})
