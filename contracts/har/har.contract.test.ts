// GET /__mock/requests?format=har (docs/decisions/017-har-record-and-replay.md): the journal as HAR 1.2.
// No secret of any flow may appear in it.
import { describe, expect, test } from 'vitest'
import {
  arm,
  bearer,
  createTestServer,
  PASSWORD,
  readCode,
  signIn,
  signUp,
  uniqueEmail,
  type TestServer,
} from '#contracts/fixtures.ts'
import type { Har } from '#api/mock-client.ts'
import { exchangeCallback, PUBLIC_ORIGIN, signInAtIdp } from '#contracts/support/external-sign-in.ts'

const STATE = 'state-0123456789abcdef'

/** An external sign-in through the mock identity provider: the code and state of its callback, then the exchange. */
async function externalSignIn(server: TestServer, email: string) {
  const back = await signInAtIdp(server.api, { email, name: 'Sso User', state: STATE })
  const signedIn = await exchangeCallback(server.api, back).expect(200)
  return {
    code: back.code,
    token: signedIn.body.token as string,
    refreshToken: signedIn.body.refresh_token as string,
  }
}

async function harOf(server: TestServer, query = ''): Promise<{ har: Har; text: string }> {
  const res = await server.api.get(`/__mock/requests?format=har${query}`).expect(200)
  return { har: res.body as Har, text: res.text }
}

describe('the journal as HAR', () => {
  test('after every flow that carries a secret, the HAR holds none of them: passwords, tokens, codes, state, cookies', async () => {
    // The provider sends the product's client back only to the origin it is reached at (external-sign-in.ts).
    const server = await createTestServer({ publicOrigin: PUBLIC_ORIGIN })
    const { api } = server
    // Sign-up with its code (signUp verifies it), a sign-in, a refresh, a protected call with the token in its query.
    const account = await signUp(api, 'har')
    const signupCode = await readCode(api, account.email, 'signup')
    const again = await signIn(api, account.email, account.password)
    const refreshed = await api
      .post('/api/refresh_token')
      .send({ refresh_token: again.refreshToken })
      .expect(200)
    await api
      .get(`/api/me?token=${refreshed.body.token}`)
      .set(bearer(refreshed.body.token))
      .set('Cookie', again.cookie)
      .expect(200)
    // A one-time code to sign in, a signed-in password change, a reset by code and reset token.
    await api.post('/api/auth/otp/send').send({ email: account.email, purpose: 'login' }).expect(202)
    const loginCode = await readCode(api, account.email, 'login')
    const byCode = await api
      .post('/api/auth/otp/verify')
      .send({ email: account.email, code: loginCode, purpose: 'login' })
      .expect(200)
    const changed = `${PASSWORD} changed`
    await api
      .post('/api/auth/update_password')
      .set(bearer(byCode.body.token))
      .send({ current_password: account.password, password: changed })
      .expect(200)
    await api.post('/__mock/clock').send({ advance_ms: 30_000 }).expect(200)
    await api.post('/api/auth/forgot').send({ email: account.email }).expect(202)
    const resetCode = await readCode(api, account.email, 'reset')
    const verified = await api
      .post('/api/auth/otp/verify')
      .send({ email: account.email, code: resetCode, purpose: 'reset' })
      .expect(200)
    const reset = `${PASSWORD} reset again`
    await api
      .post('/api/auth/update_password')
      .send({ reset_token: verified.body.reset_token, password: reset })
      .expect(200)
    // External sign-in: a state in the query and the redirect, a code and state in the body.
    const external = await externalSignIn(server, uniqueEmail('sso'))
    await api.delete('/api/_auth/session').set('Cookie', again.cookie).expect(200)

    const { har, text } = await harOf(server)
    expect(har.log.entries.length).toBeGreaterThan(12)
    const secrets = {
      password: account.password,
      changed,
      reset,
      signupCode,
      loginCode,
      resetCode,
      externalCode: external.code,
      state: STATE,
      accessToken: account.token,
      refreshToken: account.refreshToken,
      serviceToken: account.serviceToken,
      signInToken: again.token,
      signInRefresh: again.refreshToken,
      refreshedToken: refreshed.body.token,
      refreshedRefresh: refreshed.body.refresh_token,
      byCodeToken: byCode.body.token,
      resetToken: verified.body.reset_token,
      externalToken: external.token,
      externalRefresh: external.refreshToken,
      cookie: again.cookie.split('=')[1]!,
    }
    for (const [name, secret] of Object.entries(secrets)) {
      expect(secret.length, name).toBeGreaterThan(5)
      expect(text.includes(secret), `${name} is in the HAR`).toBe(false)
    }
    // Each place a secret was shows the marker instead.
    const of = (operation: string) => har.log.entries.filter((entry) => entry._operation === operation)
    expect(of('login')[0]!.request.postData!.text).toContain('"password":"[redacted]"')
    expect(JSON.parse(of('login')[0]!.response.content.text!)).toMatchObject({ token: '[redacted]' })
    expect(of('login')[0]!.response.cookies[0]).toMatchObject({ value: '[redacted]' })
    expect(of('getMe')[0]!.request.queryString).toEqual([{ name: 'token', value: '[redacted]' }])
    expect(of('getMe')[0]!.request.headers).toContainEqual({
      name: 'authorization',
      value: 'Bearer [redacted]',
    })
    expect(of('getMe')[0]!.request.cookies[0]).toMatchObject({ value: '[redacted]' })
    expect(of('exchangeCallback')[0]!.request.postData!.text).toBe(
      '{"code":"[redacted]","state":"[redacted]"}',
    )
    expect(of('authorizeExternal')[0]!.response.redirectURL).toContain('state=[redacted]')
  })

  test('the filters of the JSON journal hold for the HAR: one account, since a seq', async () => {
    const server = await createTestServer()
    const ada = await signIn(server.api, 'ada@example.com', 'analytical-engine-1843')
    const grace = await signIn(server.api, 'grace@example.com', 'compiler-pioneer-1952')
    await server.api.get('/api/me').set(bearer(ada.token)).expect(200)
    await server.api.get('/api/me').set(bearer(grace.token)).expect(200)
    const json = (await server.api.get('/__mock/requests?email=ada@example.com').expect(200)).body.requests
    const { har } = await harOf(server, '&email=ada@example.com')
    expect(har.log.entries.map((entry) => entry._seq)).toEqual(
      json.map((entry: { seq: number }) => entry.seq),
    )
    expect(
      har.log.entries.map((entry) => `${entry.request.method} ${new URL(entry.request.url).pathname}`),
    ).toEqual(['POST /api/auth/login', 'GET /api/me'])
    const since = await harOf(server, `&since=${json[0].seq}&email=ada@example.com`)
    expect(since.har.log.entries.map((entry) => entry._operation)).toEqual(['getMe'])
  })

  test('an answer lost on the wire is written as the client saw it: no status, no content', async () => {
    const server = await createTestServer()
    const ada = await signIn(server.api, 'ada@example.com', 'analytical-engine-1843')
    await arm(server.api, { name: 'answer-lost', email: 'ada@example.com', operation: 'getMe' })
    await server.api
      .get('/api/me')
      .set(bearer(ada.token))
      .then(
        () => expect.unreachable('the answer should have been dropped'),
        (error: Error) => expect(error.message).toMatch(/socket hang up|ECONNRESET/),
      )
    const { har } = await harOf(server)
    expect(har.log.entries.at(-1)).toMatchObject({
      _operation: 'getMe',
      _scenario: 'answer-lost',
      response: { status: -1, _failureText: expect.stringContaining('computed 200') },
    })
  })

  test('a format the journal does not know is refused in the documented shape, naming the field', async () => {
    const server = await createTestServer()
    const refused = await server.api.get('/__mock/requests?format=xml').expect(400)
    expect(refused.body).toMatchObject({ error: 'validation_failed', fields: { format: expect.any(String) } })
    await server.api.get('/__mock/requests?format=har&since=yesterday').expect(400)
    expect((await server.api.get('/__mock/requests?format=json').expect(200)).body).toHaveProperty('requests')
  })
})
