// The JSON data file (MockOptions.dataFile; --data imports one into the embedded store): state survives a restart, the file is replaced atomically, and tokens stay valid.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import * as fs from 'node:fs/promises'
import { join } from 'node:path'
import request from 'supertest'
import { expect, onTestFinished, test, vi } from 'vitest'
import { createApp, type AppOptions } from '../app.ts'
import { createPersistence, type PersistenceFs } from './persistence.ts'
import { scratchDir } from '../../testing/scratch-dir.ts'

const hasher = { memoryCost: 1024, timeCost: 1 }
const PASSWORD = 'a long enough passphrase'

/** A fresh folder and the data file's path in it. */
function newDataFile(): { dir: string; dataFile: string } {
  const dir = scratchDir('mock-data')
  return { dir, dataFile: join(dir, 'state.json') }
}

/**
 * An app on a data file. Its saves are done before the test ends (onTestFinished runs last-registered first), so
 * scratchDir can remove the folder: a save still under way made the removal, and so the test, fail.
 */
function appOn(options: AppOptions & { dataFile: string }) {
  const app = createApp({ hasher, ...options })
  onTestFinished(() => app.core.flush())
  return app
}

/** An app on `dataFile`, once it has read it. */
async function startApp(dataFile: string, options: { production?: boolean } = {}) {
  const app = appOn({ dataFile, ...options })
  await app.core.ready
  return app
}

/** Signs `email` up; the code it was mailed. */
async function signUpPending(app: ReturnType<typeof createApp>, email: string): Promise<string> {
  await request(app).post('/api/auth/signup').send({ name: 'Pending', email, password: PASSWORD }).expect(202)
  return (await app.core.ops.mailbox.list(email))[0]!.code!
}

test('an account, its session and its mails survive a restart', async () => {
  const { dir, dataFile } = newDataFile()
  const first = await startApp(dataFile)
  const email = 'kept@example.test'
  const code = await signUpPending(first, email)
  const signedIn = await request(first)
    .post('/api/auth/otp/verify')
    .send({ email, code, purpose: 'signup' })
    .expect(200)
  await first.core.flush()
  expect(readdirSync(dir)).toEqual(['state.json'])
  expect(readFileSync(dataFile, 'utf8')).not.toContain(signedIn.body.refresh_token)

  const second = await startApp(dataFile)
  await request(second).get('/api/me').set('Authorization', `Bearer ${signedIn.body.token}`).expect(200)
  await request(second)
    .post('/api/refresh_token')
    .send({ refresh_token: signedIn.body.refresh_token })
    .expect(200)
  await request(second).post('/api/auth/login').send({ email, password: PASSWORD }).expect(200)
  expect(await second.core.ops.mailbox.list(email)).toHaveLength(1)
})

test('an unreadable data file stops the start with a clear error', async () => {
  const dir = scratchDir('mock-data')
  const app = appOn({ dataFile: dir })
  await expect(app.core.ready).rejects.toThrow(/^Failed to read/)
})

test('in production mode the data file keeps the mails without their codes', async () => {
  const { dataFile } = newDataFile()
  const app = await startApp(dataFile, { production: true })
  const email = 'coded@example.test'
  const code = await signUpPending(app, email)
  await app.core.flush()
  const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { mails: Record<string, unknown>[] }
  expect(saved.mails.filter((mail) => mail.to === email)).toHaveLength(1)
  expect(saved.mails.every((mail) => !('code' in mail))).toBe(true)
  expect(readFileSync(dataFile, 'utf8')).not.toContain(`"${code}"`)
})

test('in production mode the data file holds no one-time code record, so a restart ends pending codes', async () => {
  const { dataFile } = newDataFile()
  const app = await startApp(dataFile, { production: true })
  await signUpPending(app, 'pending@example.test')
  expect((await app.core.ops.domain.store.snapshot()).codes).toHaveLength(1)
  await app.core.flush()
  const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as {
    store: { codes: unknown[]; users: unknown[] }
  }
  expect(saved.store.codes).toEqual([])
  expect(saved.store.users).toHaveLength(1)
  const restarted = await startApp(dataFile, { production: true })
  expect((await restarted.core.ops.domain.store.snapshot()).codes).toEqual([])
})

test('in development a pending code survives a restart and still signs in', async () => {
  const { dataFile } = newDataFile()
  const first = await startApp(dataFile)
  const email = 'pending@example.test'
  const code = await signUpPending(first, email)
  await first.core.flush()
  const second = await startApp(dataFile)
  await request(second).post('/api/auth/otp/verify').send({ email, code, purpose: 'signup' }).expect(200)
})

test('a save is on the disk before the rename makes it the data file', async () => {
  const dir = scratchDir('mock-data')
  const dataFile = join(dir, 'state.json')
  const steps: string[] = []
  const recording: PersistenceFs = {
    ...fs,
    async open(path, flags, mode) {
      const handle = await fs.open(path, flags, mode)
      const name = String(path) === dir ? 'folder' : 'file'
      return Object.assign(Object.create(handle) as typeof handle, {
        writeFile: (data: string) => (steps.push(`write ${name}`), handle.writeFile(data)),
        sync: () => (steps.push(`sync ${name}`), handle.sync()),
        close: () => (steps.push(`close ${name}`), handle.close()),
      })
    },
    rename: async (from, to) => (steps.push('rename'), fs.rename(from, to)),
  }
  const app = createApp({ hasher })
  await app.core.ready
  const { domain, mailbox, clock } = app.core.ops
  await createPersistence(dataFile, domain, mailbox, clock, { fs: recording }).save()
  expect(steps).toEqual(['write file', 'sync file', 'close file', 'rename', 'sync folder', 'close folder'])
})

test('temporary files of an interrupted write are removed at start, and nothing else', async () => {
  const dir = scratchDir('mock-data')
  const dataFile = join(dir, 'state.json')
  writeFileSync(join(dir, 'state.json.0badc0de.tmp'), '{"half": ')
  writeFileSync(join(dir, 'notes.txt.0badc0de.tmp'), 'not ours')
  const app = appOn({ dataFile })
  await app.core.ready
  await app.core.flush()
  expect(readdirSync(dir).sort()).toEqual(['notes.txt.0badc0de.tmp', 'state.json'])
})

test('a data file with a wrong type stops the start with an error naming the file and the field', async () => {
  const dir = scratchDir('mock-data')
  const dataFile = join(dir, 'state.json')
  const first = appOn({ dataFile })
  await first.core.ready
  await first.core.flush()
  const good = JSON.parse(readFileSync(dataFile, 'utf8')) as Record<string, unknown> & {
    store: { users: Record<string, unknown>[] }
  }
  const broken: [string, unknown, RegExp][] = [
    [
      'users',
      { ...good, store: { ...good.store, users: [{ ...good.store.users[0], verified: 'yes' }] } },
      /store\.users\.0\.verified/,
    ],
    ['clock', { ...good, clockOffsetMs: '5m' }, /clockOffsetMs/],
    ['secret', { ...good, secret: 42 }, /secret/],
    ['mails', { ...good, mails: {} }, /mails/],
  ]
  for (const [, state, field] of broken) {
    writeFileSync(dataFile, JSON.stringify(state))
    const app = appOn({ dataFile })
    const error = await app.core.ready.then(
      () => null,
      (reason: unknown) => reason as Error,
    )
    expect(error?.message).toMatch(/^Failed to read .*state\.json: /)
    expect(error?.message).toMatch(field)
  }
  writeFileSync(dataFile, '{"format": 1, ')
  await expect(appOn({ dataFile }).core.ready).rejects.toThrow(
    /^Failed to read .*state\.json: it is not JSON( \(at character \d+\))?\.$/,
  )
  // Where, never what: a file that is no data file at all is not quoted.
  writeFileSync(dataFile, 'TOPSECRET-password-hunter2')
  const quoted = await appOn({ dataFile }).core.ready.then(
    () => '',
    (reason: unknown) => (reason as Error).message,
  )
  expect(quoted).toMatch(/it is not JSON/)
  expect(quoted).not.toContain('TOPSECRET')
  // Six servers start one after another here (each seeds its accounts): more than the default 5 s on a busy machine.
}, 60_000)

test('production mode ignores a mock-clock offset stored in the data file: it runs on the real clock', async () => {
  const dir = scratchDir('mock-data')
  const dataFile = join(dir, 'state.json')
  const development = appOn({ dataFile })
  await development.core.ready
  development.core.clock.advance(30 * 24 * 3_600_000)
  await request(development).post('/api/auth/forgot').send({ email: 'nobody@example.test' }).expect(202)
  await development.core.flush()
  expect(
    (JSON.parse(readFileSync(dataFile, 'utf8')) as { clockOffsetMs: number }).clockOffsetMs,
  ).toBeGreaterThan(0)
  const production = appOn({ dataFile, production: true })
  await production.core.ready
  expect(production.core.clock.offsetMs()).toBe(0)
  const restarted = appOn({ dataFile })
  await restarted.core.ready
  expect(restarted.core.clock.offsetMs()).toBeGreaterThan(0)
})

/** vi.waitFor's 1 s default is a guess about the machine. */
const SLOW_MACHINE = { timeout: 15_000, interval: 50 }

test('a failed data-file write keeps the server up and its state in memory, says so once, and a later change saves it', async () => {
  const dir = scratchDir('mock-main')
  const dataFile = join(dir, 'state.json')
  const lines: string[] = []
  const app = appOn({ dataFile, logError: (line) => lines.push(line) })
  await app.core.ready
  const listening = app.listen(0, '127.0.0.1')
  await once(listening, 'listening')
  const origin = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`
  const server = { read: () => lines.join('\n') }
  const password = 'a long enough passphrase'
  const signUp = (email: string) =>
    fetch(`${origin}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Kept', email, password }),
    })
  await vi.waitFor(() => expect(existsSync(dataFile)).toBe(true), SLOW_MACHINE)
  // The fault: the data file's name is taken by a folder, so the rename over it fails.
  rmSync(dataFile)
  mkdirSync(join(dataFile, 'in-the-way'), { recursive: true })
  expect((await signUp('first@example.test')).status).toBe(202)
  await vi.waitFor(() => expect(server.read()).toMatch(/Failed to save .*state\.json/), SLOW_MACHINE)
  expect((await signUp('second@example.test')).status).toBe(202)
  expect((await fetch(`${origin}/api/_auth/session`)).status).toBe(200)
  const faults = server
    .read()
    .split('\n')
    .filter((line) => line.includes('Failed to save'))
  expect(faults).toHaveLength(1)
  expect(server.read()).not.toContain(password)
  // The fault gone, the next change writes everything the server kept in memory.
  rmSync(dataFile, { recursive: true })
  expect((await signUp('third@example.test')).status).toBe(202)
  const saved = () =>
    existsSync(dataFile) && statSync(dataFile).isFile() ? readFileSync(dataFile, 'utf8') : ''
  await vi.waitFor(() => {
    for (const email of ['first@example.test', 'second@example.test', 'third@example.test'])
      expect(saved()).toContain(email)
  }, SLOW_MACHINE)
  await vi.waitFor(() => expect(server.read()).toMatch(/Saved .*state\.json again/), SLOW_MACHINE)
  listening.close()
}, 60_000)
