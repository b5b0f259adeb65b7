// --data FILE: state survives a restart, the file is replaced atomically, and tokens stay valid.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import request from 'supertest'
import { expect, test } from 'vitest'
import { createApp } from './app.ts'

const hasher = { memoryCost: 1024, timeCost: 1 }

test('an account, its session and its mails survive a restart', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-data-'))
  const dataFile = join(dir, 'state.json')
  const first = createApp({ dataFile, hasher })
  await first.core.ready
  const email = 'kept@example.test'
  await request(first)
    .post('/api/auth/signup')
    .send({ name: 'Kept', email, password: 'a long enough passphrase' })
    .expect(202)
  const code = first.core.ops.mailbox.list(email)[0]!.code!
  const signedIn = await request(first)
    .post('/api/auth/otp/verify')
    .send({ email, code, purpose: 'signup' })
    .expect(200)
  await first.core.flush()
  expect(readdirSync(dir)).toEqual(['state.json'])
  expect(readFileSync(dataFile, 'utf8')).not.toContain(signedIn.body.refresh_token)

  const second = createApp({ dataFile, hasher })
  await second.core.ready
  await request(second).get('/api/me').set('Authorization', `Bearer ${signedIn.body.token}`).expect(200)
  await request(second)
    .post('/api/refresh_token')
    .send({ refresh_token: signedIn.body.refresh_token })
    .expect(200)
  await request(second)
    .post('/api/auth/login')
    .send({ email, password: 'a long enough passphrase' })
    .expect(200)
  expect(second.core.ops.mailbox.list(email)).toHaveLength(1)
})

test('an unreadable data file stops the start with a clear error', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mock-data-'))
  const app = createApp({ dataFile: dir, hasher })
  await expect(app.core.ready).rejects.toThrow(/^Failed to read/)
})
