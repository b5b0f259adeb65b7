// The product API called from the app's own origin (--cors-origin; docs/decisions/020-deploying-on-two-origins.md).
// Only the named origin reads answers and keeps its cookie session; any other origin reads nothing.
import { describe, expect, test } from 'vitest'
import {
  createTestServer,
  PASSWORD,
  readCode,
  uniqueEmail,
  unvalidated,
  type TestServer,
} from '#contracts/fixtures.ts'
import { TARGET_URL } from '#contracts/support/target.ts'
import { DECLARED_CORS_ORIGINS } from '#contracts/support/target-settings.ts'

/**
 * The origins the API is started for: against a target, those CONTRACT_TARGET_CORS_ORIGINS declares, so a deployment
 * is checked for its own app (docs/contract-suite.md, "The target's settings").
 */
const APP_ORIGINS =
  TARGET_URL && DECLARED_CORS_ORIGINS?.length ? DECLARED_CORS_ORIGINS : ['https://app.example']
const APP = APP_ORIGINS[0]!
const EVIL = 'https://evil.example'
/** The app's host over the other scheme, and on another port: other origins, the same site. */
const OTHER_SCHEME = APP.startsWith('https:')
  ? APP.replace(/^https:/, 'http:')
  : APP.replace(/^http:/, 'https:')
const OTHER_PORT = (() => {
  const url = new URL(APP)
  url.port = url.port === '8443' ? '8444' : '8443'
  return url.origin
})()
/** What the browser adds to a call of the app at APP, a site other than the API's. */
const FROM_APP = { Origin: APP, 'Sec-Fetch-Site': 'cross-site' }

const productionWithApp = () => createTestServer({ production: true, corsOrigins: APP_ORIGINS })

/** The code mailed to `email`: in process from the app's outbox (production has no /__mock), from a target's mail. */
async function mailedCode(server: TestServer, email: string): Promise<string> {
  if (TARGET_URL) return readCode(server.api, email, 'signup')
  return (await server.app.core.ops.mailbox.list(email)).at(-1)?.code ?? ''
}

/** Signs an account up and in as the app at APP does. */
async function signUpFromApp(server: TestServer) {
  const email = uniqueEmail('cors')
  const signup = await server.api
    .post('/api/auth/signup')
    .set(FROM_APP)
    .send({ name: 'Ada', email, password: PASSWORD })
    .expect(202)
  expect(signup.headers['access-control-allow-origin']).toBe(APP)
  const code = await mailedCode(server, email)
  const verified = await server.api
    .post('/api/auth/otp/verify')
    .set(FROM_APP)
    .send({ email, code, purpose: 'signup' })
    .expect(200)
  return { email, verified }
}

const corsHeadersOf = (headers: Record<string, unknown>) =>
  Object.keys(headers).filter((name) => name.startsWith('access-control-'))

describe('--cors-origin in production mode', () => {
  test('the named origin reads the sign-up and sign-in answers with credentials, and its cookie is SameSite=None; Secure; Partitioned', async () => {
    const server = await productionWithApp()
    const { email, verified } = await signUpFromApp(server)
    expect(verified.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      vary: 'Origin',
    })
    expect(verified.headers['set-cookie']).toEqual([
      expect.stringMatching(
        /^sid=[^;]+; Path=\/; HttpOnly; SameSite=None; Secure; Partitioned; Max-Age=\d+$/,
      ),
    ])
    const login = await server.api
      .post('/api/auth/login')
      .set(FROM_APP)
      .send({ email, password: PASSWORD })
      .expect(200)
    expect(login.headers['set-cookie']).toEqual([
      expect.stringContaining('SameSite=None; Secure; Partitioned'),
    ])
    expect(login.headers['access-control-allow-origin']).toBe(APP)
  })

  test('over https the partitioned cookie keeps the __Host- prefix', async () => {
    const server = await createTestServer({ production: true, corsOrigins: APP_ORIGINS, trustProxyHops: 1 })
    const email = uniqueEmail('cors-https')
    await server.api
      .post('/api/auth/signup')
      .set({ ...FROM_APP, 'X-Forwarded-Proto': 'https' })
      .send({ name: 'Ada', email, password: PASSWORD })
      .expect(202)
    const code = await mailedCode(server, email)
    const verified = await server.api
      .post('/api/auth/otp/verify')
      .set({ ...FROM_APP, 'X-Forwarded-Proto': 'https' })
      .send({ email, code, purpose: 'signup' })
      .expect(200)
    expect(verified.headers['set-cookie']).toEqual([
      expect.stringMatching(/^__Host-sid=[^;]+; Path=\/; HttpOnly; SameSite=None; Secure; Partitioned; /),
    ])
  })

  test('the same calls without an Origin (same origin, curl) keep the Lax cookie and get no CORS header', async () => {
    const server = await productionWithApp()
    const email = uniqueEmail('cors-same')
    await server.api.post('/api/auth/signup').send({ name: 'Ada', email, password: PASSWORD }).expect(202)
    const code = await mailedCode(server, email)
    const verified = await server.api
      .post('/api/auth/otp/verify')
      .send({ email, code, purpose: 'signup' })
      .expect(200)
    expect(verified.headers['set-cookie']).toEqual([
      expect.stringMatching(/; HttpOnly; SameSite=Lax; Max-Age=/),
    ])
    expect(corsHeadersOf(verified.headers)).toEqual([])
    expect(verified.headers.vary).toBe('Origin')
  })

  test('the named origin reads refusals and faults too: a 401, a 404 of no operation, a 415', async () => {
    const { api } = await productionWithApp()
    for (const res of [
      await api.get('/api/me').set(FROM_APP).expect(401),
      await api.get('/api/nothing-here').set(FROM_APP).expect(404),
      await api.post('/api/auth/login').set(FROM_APP).set('Content-Type', 'text/plain').send('x').expect(415),
    ]) {
      expect(res.headers['access-control-allow-origin']).toBe(APP)
      expect(res.headers['access-control-allow-credentials']).toBe('true')
      expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String) }))
    }
  })

  test('a preflight from the named origin gets the methods of the path and the headers the app sends', async () => {
    const server = await productionWithApp()
    const res = await unvalidated(server)
      .options('/api/_auth/session')
      .set('Origin', APP)
      .set('Access-Control-Request-Method', 'DELETE')
      .set('Access-Control-Request-Headers', 'authorization')
      .expect(204)
    expect(res.headers).toMatchObject({
      'access-control-allow-origin': APP,
      'access-control-allow-credentials': 'true',
      'access-control-allow-methods': 'GET, DELETE',
      'access-control-allow-headers': 'Authorization, Content-Type, sentry-trace, baggage',
      'access-control-max-age': '600',
      vary: 'Origin',
    })
    const patch = await unvalidated(server)
      .options('/api/process/steps/s1')
      .set('Origin', APP)
      .set('Access-Control-Request-Method', 'PATCH')
      .expect(204)
    expect(patch.headers['access-control-allow-methods']).toBe('PATCH')
  })

  test('a preflight from any other origin is refused in the error shape, with no CORS header', async () => {
    const server = await productionWithApp()
    for (const origin of [EVIL, OTHER_SCHEME, OTHER_PORT, 'null']) {
      const res = await unvalidated(server)
        .options('/api/auth/login')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST')
        .expect(403)
      expect(res.body).toEqual({
        error: 'cross_site_request',
        message: 'This API takes no calls from that origin.',
      })
      expect(corsHeadersOf(res.headers)).toEqual([])
    }
  })

  test('a plain OPTIONS (no preflight) is still a 405 with Allow', async () => {
    const res = await unvalidated(await productionWithApp())
      .options('/api/auth/login')
      .expect(405)
    expect(res.headers.allow).toBe('POST')
  })

  test('another origin’s answers carry no CORS header, so its page reads none of them', async () => {
    const { api } = await productionWithApp()
    const res = await api
      .post('/api/auth/login')
      .set({ Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' })
      .send({ email: 'nobody@example.test', password: 'not the password' })
      .expect(401)
    expect(corsHeadersOf(res.headers)).toEqual([])
    expect(res.headers.vary).toBe('Origin')
  })

  test('the named origin signs out with its cookie and bearer; another origin is still refused and ends nothing', async () => {
    const server = await productionWithApp()
    const { verified } = await signUpFromApp(server)
    const cookie = String(verified.headers['set-cookie']?.[0]).split(';')[0]!
    const bearer = `Bearer ${verified.body.token as string}`
    for (const headers of [
      { Origin: EVIL, 'Sec-Fetch-Site': 'cross-site' },
      { Origin: OTHER_PORT, 'Sec-Fetch-Site': 'same-site' },
      { Origin: EVIL },
    ]) {
      const refused = await server.api
        .delete('/api/_auth/session')
        .set(headers)
        .set('Cookie', cookie)
        .set('Authorization', bearer)
        .expect(403)
      expect(refused.body.error).toBe('cross_site_request')
      expect(refused.headers['set-cookie']).toBeUndefined()
    }
    const session = await server.api.get('/api/_auth/session').set(FROM_APP).set('Cookie', cookie).expect(200)
    expect(session.body.user.email).toBeDefined()

    const out = await server.api
      .delete('/api/_auth/session')
      .set(FROM_APP)
      .set('Cookie', cookie)
      .set('Authorization', bearer)
      .expect(200)
    expect(out.headers['access-control-allow-origin']).toBe(APP)
    expect(out.headers['set-cookie']).toEqual([
      expect.stringMatching(/^sid=; Path=\/; HttpOnly; SameSite=None; Secure; Partitioned; Max-Age=0; /),
    ])
    await server.api.get('/api/_auth/session').set(FROM_APP).set('Cookie', cookie).expect(200, {})
    await server.api
      .post('/api/refresh_token')
      .set(FROM_APP)
      .send({ refresh_token: verified.body.refresh_token })
      .expect(401)
  })
})

describe('without --cors-origin', () => {
  // `corsOrigins: []` says so: a target may have been started with one (docs/deploying.md starts it so), which the
  // suite cannot see from outside, so against a target these run only with CONTRACT_TARGET_CORS_ORIGINS=none.
  const WITHOUT_CORS = { production: true, corsOrigins: [] } as const

  test('answers are as before: no CORS header and no Vary: Origin, whatever the Origin', async () => {
    const { api } = await createTestServer(WITHOUT_CORS)
    const res = await api.get('/api/_auth/session').set('Origin', APP).expect(200)
    expect(corsHeadersOf(res.headers)).toEqual([])
    expect(res.headers.vary).toBeUndefined()
  })

  test('a preflight is refused: no page of another origin calls the API', async () => {
    const server = await createTestServer(WITHOUT_CORS)
    const res = await unvalidated(server)
      .options('/api/auth/login')
      .set('Origin', APP)
      .set('Access-Control-Request-Method', 'POST')
      .expect(403)
    expect(corsHeadersOf(res.headers)).toEqual([])
  })
})

test('in development the control surface keeps its own rules: no CORS header for the named origin, its writes refused', async () => {
  const { api } = await createTestServer({ corsOrigins: [APP] })
  const read = await api.get('/__mock/clock').set(FROM_APP).expect(200)
  expect(corsHeadersOf(read.headers)).toEqual([])
  const write = await api.post('/__mock/clock').set(FROM_APP).send({ advance_ms: 1000 }).expect(403)
  expect(write.body.error).toBe('cross_site_request')
})
