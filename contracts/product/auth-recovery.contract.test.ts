// Password recovery and change: forgot, reset token, signed-in change; each ends the right sessions.
import { describe, expect, test } from 'vitest'
import {
  bearer,
  expectMalformedRefused,
  limitedServer,
  login,
  PASSWORD,
  readCode,
  signIn,
  signUp,
  uniqueEmail,
  useTestServer,
} from '#contracts/fixtures.ts'
import { MANY_CALLS_TIMEOUT_MS } from '#contracts/support/test-server.ts'
import { MAX_REAL_WAIT_MS, waitPast } from '#contracts/support/expiry.ts'
import { CODE_COOLDOWN_MS } from '#mock-server/shared/constants.ts'

const server = useTestServer()

describe('POST /api/auth/forgot', () => {
  test('answers 202 alike whether or not the account exists, and mails the real one a code', async () => {
    const { api } = server
    const { email } = await signUp(api, 'forgetful')
    const real = await api.post('/api/auth/forgot').send({ email }).expect(202)
    const fake = await api
      .post('/api/auth/forgot')
      .send({ email: uniqueEmail('ghost') })
      .expect(202)
    expect(fake.body).toEqual(real.body)
    expect(await readCode(api, email, 'reset')).toMatch(/^\d{6}$/)
  })

  test('mails nothing to an address without an account', async () => {
    const ghost = uniqueEmail('ghost')
    await server.api.post('/api/auth/forgot').send({ email: ghost }).expect(202)
    expect(await server.mock.mailbox(ghost)).toEqual([])
  })

  test('refuses malformed requests', async () => {
    await expectMalformedRefused(server.api, '/api/auth/forgot', {
      invalid: { email: 'nope' },
      oversized: { email: 'x'.repeat(17_000) },
    })
  })

  test(
    'rate-limits one client address beyond its limit of mails',
    async () => {
      const { server: limited, limit } = await limitedServer(
        'mailRateLimit',
        { max: 1, windowMs: 60_000 },
        server,
      )
      const email = uniqueEmail('forgetful')
      for (let call = 0; call < limit.max; call += 1)
        await limited.api.post('/api/auth/forgot').send({ email }).expect(202)
      const res = await limited.api.post('/api/auth/forgot').send({ email }).expect(429)
      expect(res.body.error).toBe('rate_limited')
    },
    MANY_CALLS_TIMEOUT_MS,
  )
})

describe('POST /api/auth/update_password', () => {
  async function resetToken(email: string): Promise<string> {
    await server.api.post('/api/auth/forgot').send({ email }).expect(202)
    const code = await readCode(server.api, email, 'reset')
    return (await server.api.post('/api/auth/otp/verify').send({ email, code, purpose: 'reset' }).expect(200))
      .body.reset_token
  }

  test('with a reset token: sets the password, ends every session, and the token works once', async () => {
    const { api } = server
    const account = await signUp(api)
    const token = await resetToken(account.email)
    await api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: 'another fine passphrase' })
      .expect(200)
    expect((await api.get('/api/me').set(bearer(account.token)).expect(401)).body.error).toBe(
      'session_revoked',
    )
    await api.post('/api/refresh_token').send({ refresh_token: account.refreshToken }).expect(401)
    await login(server, account.email, account.password).expect(401)
    await login(server, account.email, 'another fine passphrase').expect(200)
    const again = await api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: 'yet another passphrase' })
      .expect(400)
    expect(again.body.error).toBe('reset_token_invalid')
  })

  test(
    'an older reset token dies when a newer one is issued, and every one dies with a new password',
    async () => {
      const { api } = server
      const account = await signUp(api)
      const reset = (token: string, password: string) =>
        api.post('/api/auth/update_password').send({ reset_token: token, password })
      // Someone who once read a reset code keeps its token; the owner recovers after them.
      const stolen = await resetToken(account.email)
      await waitPast(api, CODE_COOLDOWN_MS + 1000)
      const owners = await resetToken(account.email)
      expect((await reset(stolen, 'the thief’s passphrase').expect(400)).body.error).toBe(
        'reset_token_invalid',
      )
      await reset(owners, 'the owner’s new passphrase').expect(200)
      // A token issued before a signed-in change dies with it too.
      await waitPast(api, CODE_COOLDOWN_MS + 1000)
      const early = await resetToken(account.email)
      const signedIn = await login(server, account.email, 'the owner’s new passphrase').expect(200)
      await api
        .post('/api/auth/update_password')
        .set(bearer(signedIn.body.token))
        .send({ current_password: 'the owner’s new passphrase', password: 'changed while signed in' })
        .expect(200)
      expect((await reset(early, 'the thief’s passphrase').expect(400)).body.error).toBe(
        'reset_token_invalid',
      )
      await login(server, account.email, 'changed while signed in').expect(200)
    },
    30_000 + 2 * MAX_REAL_WAIT_MS,
  ) // past the cooldown twice: in real time where the clock cannot move

  test('a refused new password does not use up the reset token', async () => {
    const token = await resetToken((await signUp(server.api, 'recovery')).email)
    await server.api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: 'password1' })
      .expect(400)
    await server.api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: 'a fresh passphrase' })
      .expect(200)
  })

  test('the address is refused as the new password, and the token still works after', async () => {
    const { email } = await signUp(server.api, 'recovery')
    const token = await resetToken(email)
    // The address in other letter cases is the address still.
    const asPassword = email.toUpperCase()
    const refused = await server.api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: asPassword })
      .expect(400)
    expect(refused.body).toMatchObject({
      error: 'password_rejected',
      fields: { password: expect.any(String) },
    })
    await login(server, email, asPassword).expect(401)
    await server.api
      .post('/api/auth/update_password')
      .send({ reset_token: token, password: 'a fresh passphrase' })
      .expect(200)
  })

  test('signed in: checks the current password and ends the other sessions only', async () => {
    const { api } = server
    const account = await signUp(api)
    const other = await signIn(api, account.email, account.password)
    const wrong = await api
      .post('/api/auth/update_password')
      .set(bearer(account.token))
      .send({ current_password: 'not my password', password: 'a changed passphrase' })
      .expect(400)
    expect(wrong.body.error).toBe('invalid_credentials')
    await api
      .post('/api/auth/update_password')
      .set(bearer(account.token))
      .send({ current_password: account.password, password: 'a changed passphrase' })
      .expect(200)
    await api.get('/api/me').set(bearer(account.token)).expect(200)
    expect((await api.get('/api/me').set(bearer(other.token)).expect(401)).body.error).toBe('session_revoked')
  })

  test('signed-in form without a token, or with a bad one, is 401', async () => {
    const body = { current_password: 'whatever it is', password: 'a changed passphrase' }
    expect(
      (await server.api.post('/api/auth/update_password').send(body).expect(401)).body.error,
    ).toBeUndefined()
    const res = await server.api
      .post('/api/auth/update_password')
      .set(bearer('garbage'))
      .send(body)
      .expect(401)
    expect(res.body.error).toBe('token_invalid')
  })

  test('refuses malformed requests', async () => {
    const { api } = server
    const res = await api
      .post('/api/auth/update_password')
      .send({ reset_token: 'x', password: 'short' })
      .expect(400)
    expect(res.body.fields.password).toMatch(/at least 8/)
    await api.post('/api/auth/update_password').set('Content-Type', 'text/plain').send('x').expect(415)
    await api
      .post('/api/auth/update_password')
      .send({ reset_token: 'x'.repeat(17_000), password: PASSWORD })
      .expect(413)
  })

  test(
    'counts towards the sign-in limit of the client address',
    async () => {
      const { server: limited, limit } = await limitedServer(
        'loginRateLimit',
        { max: 1, windowMs: 60_000 },
        server,
      )
      for (let call = 0; call < limit.max; call += 1)
        await limited.api
          .post('/api/auth/update_password')
          .send({ reset_token: 'bad', password: PASSWORD })
          .expect(400)
      await limited.api
        .post('/api/auth/update_password')
        .send({ reset_token: 'bad', password: PASSWORD })
        .expect(429)
    },
    MANY_CALLS_TIMEOUT_MS,
  )
})
