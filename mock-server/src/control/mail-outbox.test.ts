// --mail-outbox (docs/decisions/020-deploying-on-two-origins.md): every mail sent, one owner-only JSON file each, in
// the order sent; a failed write is reported without the mail.
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, test } from 'vitest'
import { createMailbox, withOutbox } from './mailbox.ts'
import { createMailOutbox } from './mail-outbox.ts'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mail-outbox-'))
  dirs.push(dir)
  return dir
}

const clock = { now: () => Date.parse('2026-01-02T03:04:05.678Z') }

test('each mail sent is one JSON file of the mailbox’s shape, in the order sent, readable by the owner only', async () => {
  const dir = join(tempDir(), 'mails')
  const outbox = createMailOutbox(dir, () => {})
  const mailbox = withOutbox(createMailbox(clock), outbox, clock)
  await mailbox.send({ to: 'ada@example.com', subject: 'Confirm', purpose: 'signup', code: '123456' })
  await mailbox.send({ to: 'ada@example.com', subject: 'Changed', purpose: 'password_changed' })
  await outbox.flush()

  const names = readdirSync(dir).sort()
  expect(names).toHaveLength(2)
  expect(names.every((name) => /^20260102T030405678Z-\d{6}-[0-9a-f]{6}\.json$/.test(name))).toBe(true)
  expect(names.map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as unknown)).toEqual([
    {
      to: 'ada@example.com',
      subject: 'Confirm',
      purpose: 'signup',
      code: '123456',
      sent_at: '2026-01-02T03:04:05.678Z',
    },
    {
      to: 'ada@example.com',
      subject: 'Changed',
      purpose: 'password_changed',
      sent_at: '2026-01-02T03:04:05.678Z',
    },
  ])
  expect(statSync(dir).mode & 0o777).toBe(0o700)
  for (const name of names) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600)
  // The mailbox itself still has them (development reads it at /__mock/mailbox).
  expect((await mailbox.list('ada@example.com')).map((mail) => mail.purpose)).toEqual([
    'signup',
    'password_changed',
  ])
})

test('a write that fails is reported in one line naming the folder, never the mail; later mails are written', async () => {
  const dir = join(tempDir(), 'mails')
  const lines: string[] = []
  const outbox = createMailOutbox(dir, (line) => lines.push(line))
  const mailbox = withOutbox(createMailbox(clock), outbox, clock)
  // The folder gone and a file in its place: a write fails whoever runs the test (root writes into read-only folders).
  rmSync(dir, { recursive: true })
  writeFileSync(dir, '')
  await mailbox.send({ to: 'ada@example.com', subject: 'Confirm', purpose: 'signup', code: '654321' })
  await outbox.flush()
  expect(lines).toEqual([`Failed to write a mail to ${dir} (ENOTDIR).`])
  rmSync(dir)
  mkdirSync(dir, { mode: 0o700 })
  await mailbox.send({ to: 'ada@example.com', subject: 'Confirm', purpose: 'signup', code: '111111' })
  await outbox.flush()
  expect(lines).toHaveLength(1)
  const names = readdirSync(dir)
  expect(names).toHaveLength(1)
  expect(JSON.parse(readFileSync(join(dir, names[0]!), 'utf8'))).toMatchObject({ code: '111111' })
})

test('a folder that cannot be made stops the start', () => {
  const file = join(tempDir(), 'a-file')
  writeFileSync(file, '')
  expect(() => createMailOutbox(join(file, 'mails'), () => {})).toThrow(
    `Failed to start: --mail-outbox ${join(file, 'mails')} cannot be made (ENOTDIR).`,
  )
})

test('an existing folder open to others, a symbolic link or a file stops the start; a 0700 folder of ours is used', () => {
  const base = tempDir()
  const open = join(base, 'open')
  mkdirSync(open)
  chmodSync(open, 0o777)
  expect(() => createMailOutbox(open, () => {})).toThrow(
    `Failed to start: --mail-outbox ${open} is open to others (mode 0777); give a folder only you can open.`,
  )
  chmodSync(open, 0o750)
  expect(() => createMailOutbox(open, () => {})).toThrow(/is open to others \(mode 0750\)/)
  const own = join(base, 'own')
  mkdirSync(own, { mode: 0o700 })
  const link = join(base, 'link')
  symlinkSync(own, link)
  expect(() => createMailOutbox(link, () => {})).toThrow(
    `Failed to start: --mail-outbox ${link} is a symbolic link; give a folder only you can open.`,
  )
  const file = join(base, 'file')
  writeFileSync(file, '')
  expect(() => createMailOutbox(file, () => {})).toThrow(/cannot be made \(EEXIST\)|is not a folder/)
  chmodSync(own, 0o700)
  expect(() => createMailOutbox(own, () => {})).not.toThrow()
})

test.runIf(process.getuid?.() === 0)(
  'a folder of another user stops the start (run as root, which can give one away)',
  () => {
    const dir = join(tempDir(), 'theirs')
    mkdirSync(dir, { mode: 0o700 })
    chownSync(dir, 1, 1)
    expect(() => createMailOutbox(dir, () => {})).toThrow(
      `Failed to start: --mail-outbox ${dir} belongs to user 1, not to this server's (0); give a folder only you can open.`,
    )
  },
)
