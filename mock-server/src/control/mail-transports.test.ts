// The control surface's mail transports (docs/mail.md): with --mail-outbox and --smtp both set, each mail goes to the
// mailbox, the folder and the SMTP transport; flush and close reach every transport; SMTP needs the Node server.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { createControlClock } from '../shared/control-clock.ts'
import { createControl } from './index.ts'
import { createMailOutbox } from './mail-outbox.ts'
import type { MailDelivery } from './mail-delivery.ts'
import type { Mail } from './mailbox.ts'
import type { SmtpSettings } from './smtp-mail.ts'

const SETTINGS: SmtpSettings = {
  host: '127.0.0.1',
  port: 2525,
  implicitTls: false,
  requireTls: false,
  from: 'no-reply@example.test',
}

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** An SMTP transport that records what it is given and asked. */
function fakeSmtp() {
  const calls: string[] = []
  const delivered: Mail[] = []
  const open = (settings: SmtpSettings, _report: (line: string) => void): MailDelivery => {
    calls.push(`open ${settings.host}:${settings.port}`)
    return {
      deliver: (mail) => void delivered.push(mail),
      flush: async () => void calls.push('flush'),
      close: async () => void calls.push('close'),
    }
  }
  return { open, calls, delivered }
}

test('with --mail-outbox and --smtp, each mail goes to the mailbox, the folder and SMTP alike', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mail-transports-'))
  dirs.push(dir)
  const smtp = fakeSmtp()
  const control = createControl(
    {
      mailOutbox: join(dir, 'mails'),
      openMailOutbox: createMailOutbox,
      smtp: SETTINGS,
      openSmtp: smtp.open,
    },
    createControlClock(() => Date.parse('2026-01-02T03:04:05.678Z')),
  )
  await control.mailbox.send({
    to: 'ada@example.com',
    subject: 'Your sign-in code',
    purpose: 'login',
    code: '123456',
  })
  await control.flush()
  const expected = {
    to: 'ada@example.com',
    subject: 'Your sign-in code',
    purpose: 'login',
    code: '123456',
    sent_at: '2026-01-02T03:04:05.678Z',
  }
  expect(await control.mailbox.list()).toEqual([expected])
  expect(smtp.delivered).toEqual([expected])
  expect(readdirSync(join(dir, 'mails'))).toHaveLength(1)
  await control.close()
  expect(smtp.calls).toEqual(['open 127.0.0.1:2525', 'flush', 'close'])
})

test('clearing the mailbox (a reset) leaves SMTP alone', async () => {
  const smtp = fakeSmtp()
  const control = createControl({ smtp: SETTINGS, openSmtp: smtp.open }, createControlClock())
  await control.mailbox.send({ to: 'ada@example.com', subject: 'Changed', purpose: 'password_changed' })
  await control.clear()
  expect(await control.mailbox.list()).toEqual([])
  expect(smtp.delivered).toHaveLength(1)
})

test('--smtp without the Node server is refused in one line', () => {
  expect(() => createControl({ smtp: SETTINGS }, createControlClock())).toThrow(
    'Mail over SMTP needs the Node server (app.ts), which opens it.',
  )
})
