// The `auth` operations' answers about codes: `resend_after` counts from the code the call itself sent, so time the
// call spends after sending it (a mail transport slow to take the mail) never shows in the answer.
import request from 'supertest'
import { expect, test } from 'vitest'
import { createApp } from '../../app.ts'

/** A server whose real time moves only when the test moves it (`advance`). */
async function stillServer() {
  let now = Date.parse('2026-11-30T12:00:00Z')
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 }, realNow: () => now })
  await app.core.ready
  return { app, advance: (ms: number) => (now += ms) }
}

/** A server whose mail takes two seconds to hand over. */
async function slowMailServer() {
  const { app, advance } = await stillServer()
  const { mailbox } = app.core.ops
  const send = mailbox.send.bind(mailbox)
  mailbox.send = async (mail) => {
    advance(2_000)
    await send(mail)
  }
  return app
}

const signUp = (app: Awaited<ReturnType<typeof stillServer>>['app'], email: string) =>
  request(app).post('/api/auth/signup').send({ name: 'Probe', email, password: 'a probing passphrase' })

const FRESH = { accepted: true, resend_after: 30 }

test('a code just sent is answered with the whole cooldown, for a known and an unknown address alike', async () => {
  const app = await slowMailServer()
  for (const email of ['ada@example.com', 'nobody@example.test']) {
    const forgot = await request(app).post('/api/auth/forgot').send({ email })
    expect(forgot.status, `forgot ${email}`).toBe(202)
    expect(forgot.body, `forgot ${email}`).toEqual(FRESH)
    const otp = await request(app).post('/api/auth/otp/send').send({ email, purpose: 'login' })
    expect(otp.body, `otp/send ${email}`).toEqual(FRESH)
  }
  for (const email of ['ada@example.com', 'new@example.test']) {
    const signup = await signUp(app, email)
    expect(signup.status, `signup ${email}`).toBe(202)
    expect(signup.body, `signup ${email}`).toEqual(FRESH)
  }
})

test('within the cooldown the answer counts down from the code sent before, for a known and an unknown address alike', async () => {
  for (const email of ['ada@example.com', 'nobody@example.test']) {
    const { app, advance } = await stillServer()
    expect((await request(app).post('/api/auth/forgot').send({ email })).body, email).toEqual(FRESH)
    advance(5_000)
    const again = await request(app).post('/api/auth/forgot').send({ email })
    expect(again.body, email).toEqual({ accepted: true, resend_after: 25 })
  }
})

test('a sign-up while the cooldown runs answers what was read before any write: verified, pending and new alike', async () => {
  const answers: Record<string, unknown> = {}
  for (const [email, start] of [
    ['ada@example.com', 'otp'],
    ['pending@example.test', 'signup'],
    ['new@example.test', 'otp'],
  ] as const) {
    const { app, advance } = await stillServer()
    // Anyone can start an address's sign-up cooldown: a code to send, or a sign-up.
    const started =
      start === 'otp'
        ? await request(app).post('/api/auth/otp/send').send({ email, purpose: 'signup' })
        : await signUp(app, email)
    expect(started.body, email).toEqual(FRESH)
    advance(5_000)
    // A store slow to write accounts: only the pending and the new address's sign-up writes one.
    const { users } = app.core.ops.domain.store
    for (const write of ['create', 'update'] as const) {
      const original = users[write].bind(users) as (...args: unknown[]) => Promise<unknown>
      Object.assign(users, {
        [write]: async (...args: unknown[]) => (advance(2_000), await original(...args)),
      })
    }
    answers[email] = (await signUp(app, email)).body
  }
  expect(answers).toEqual({
    'ada@example.com': { accepted: true, resend_after: 25 },
    'pending@example.test': { accepted: true, resend_after: 25 },
    'new@example.test': { accepted: true, resend_after: 25 },
  })
})
