// The `auth` operations' answers about codes: `resend_after` counts from the code the call itself sent, so time the
// call spends after sending it (a mail transport slow to take the mail) never shows in the answer.
import request from 'supertest'
import { expect, test } from 'vitest'
import { createApp } from '../../app.ts'

/** A server whose real time moves only when the test moves it, and whose mail takes two seconds to hand over. */
async function slowMailServer() {
  let now = Date.parse('2026-11-30T12:00:00Z')
  const app = createApp({ hasher: { memoryCost: 1024, timeCost: 1 }, realNow: () => now })
  await app.core.ready
  const { mailbox } = app.core.ops
  const send = mailbox.send.bind(mailbox)
  mailbox.send = async (mail) => {
    now += 2_000
    await send(mail)
  }
  return app
}

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
    const signup = await request(app)
      .post('/api/auth/signup')
      .send({ name: 'Probe', email, password: 'a probing passphrase' })
    expect(signup.status, `signup ${email}`).toBe(202)
    expect(signup.body, `signup ${email}`).toEqual(FRESH)
  }
})

test('within the cooldown the answer counts down from the code sent before', async () => {
  const app = await slowMailServer()
  const first = await request(app).post('/api/auth/forgot').send({ email: 'ada@example.com' })
  expect(first.body).toEqual(FRESH)
  // The mail of the first call took 2 s of the 30.
  const again = await request(app).post('/api/auth/forgot').send({ email: 'ada@example.com' })
  expect(again.body).toEqual({ accepted: true, resend_after: 28 })
})
