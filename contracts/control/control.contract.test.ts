// The /__mock control surface: reset, clock, scenarios, mailbox, journal, the API reference; and production mode.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import request from 'supertest'
import { parse } from 'yaml'
import { describe, expect, test } from 'vitest'
import {
  arm,
  bearer,
  PASSWORD,
  readCode,
  requireOwnServer,
  serverWith,
  signUp,
  uniqueEmail,
  useTestServer,
} from '#contracts/fixtures.ts'
import { SCENARIO_NAMES, SCENARIO_RULES } from '#api/operations.gen.ts'
import { fingerprint } from '#mock-server/control/state.ts'
import { hashToken } from '#mock-server/shared/crypto.ts'
import { TARGET_URL } from '#contracts/support/target.ts'

const server = useTestServer()

describe('reset', () => {
  test('returns to the seed state: accounts, mails, scenarios and clock', async () => {
    const { api } = server
    const account = await signUp(api)
    await arm(api, { name: 'server-error', until_cleared: true, email: 'ada@example.com' })
    await api.post('/__mock/clock').send({ advance_ms: 60_000 }).expect(200)
    expect((await api.post('/__mock/reset').send({}).expect(200)).body).toEqual({ reset: true })
    await api.post('/api/auth/login').send({ email: account.email, password: account.password }).expect(401)
    await api
      .post('/api/auth/login')
      .send({ email: 'ada@example.com', password: 'analytical-engine-1843' })
      .expect(200)
    expect((await api.get('/__mock/mailbox').expect(200)).body.messages).toEqual([])
    expect((await api.get('/__mock/scenarios').expect(200)).body.armed).toEqual([])
    expect(Math.abs((await api.get('/__mock/clock').expect(200)).body.offset_ms)).toBe(0)
  })
})

describe('clock', () => {
  test('advances and sets the server time', async () => {
    const { api } = server
    const before = (await api.get('/__mock/clock').expect(200)).body
    const after = (await api.post('/__mock/clock').send({ advance_ms: 3_600_000 }).expect(200)).body
    expect(after.offset_ms - before.offset_ms).toBe(3_600_000)
    const set = (await api.post('/__mock/clock').send({ now: '2030-01-01T00:00:00.000Z' }).expect(200)).body
    expect(Date.parse(set.now)).toBeGreaterThanOrEqual(Date.parse('2030-01-01T00:00:00.000Z'))
  })

  test.each([
    [{ advance_ms: -5 }],
    [{ advance_ms: 'soon' }],
    [{ now: 'yesterday' }],
    [{ advance_ms: 1, now: '2030-01-01T00:00:00Z' }],
  ])('refuses %j', async (body) => {
    expect((await server.api.post('/__mock/clock').send(body).expect(400)).body.error).toBe(
      'validation_failed',
    )
  })

  test('refuses to leave the years 0000 to 9999, and keeps the clock where it was', async () => {
    const { api } = server
    await api.post('/__mock/clock').send({ now: '9999-12-31T23:00:00.000Z' }).expect(200)
    const refused = await api.post('/__mock/clock').send({ advance_ms: 7_200_000 }).expect(400)
    expect(refused.body.error).toBe('clock_out_of_range')
    const late = await api.post('/__mock/clock').send({ now: '+010000-01-01T00:00:00.000Z' })
    expect(late.status).toBe(400)
    const early = await api.post('/__mock/clock').send({ now: '0000-01-01T00:00:00+00:01' }).expect(400)
    expect(early.body.error).toBe('clock_out_of_range')
    const clock = (await api.get('/__mock/clock').expect(200)).body
    expect(clock.now.startsWith('9999-12-31T23:')).toBe(true)
  })

  test('refuses wrong media types and oversized bodies', async () => {
    await server.api.post('/__mock/clock').set('Content-Type', 'text/plain').send('1').expect(415)
    await server.api
      .post('/__mock/clock')
      .send({ now: 'x'.repeat(17_000) })
      .expect(413)
  })
})

describe('scenarios', () => {
  test('lists every scenario with the operations it matches', async () => {
    const res = await server.api.get('/__mock/scenarios').expect(200)
    // In the order of the ArmRequest variants, as generated from the control document.
    const available = res.body.available as { name: keyof typeof SCENARIO_RULES; operations: string[] }[]
    expect(available.map((scenario) => scenario.name)).toEqual([...SCENARIO_NAMES])
    for (const scenario of available)
      expect(scenario.operations, scenario.name).toEqual([...SCENARIO_RULES[scenario.name].operations])
  })

  test('a scenario scoped to one account leaves the others alone, and is spent after `times`', async () => {
    const { api } = server
    const ada = await signUp(api, 'ada')
    const bob = await signUp(api, 'bob')
    const armed = await api
      .post('/__mock/scenarios')
      .send({ name: 'access-token-expired', email: ada.email, times: 2 })
      .expect(201)
    expect(armed.body).toMatchObject({ name: 'access-token-expired', email: ada.email, remaining: 2 })
    await api.get('/api/me').set(bearer(bob.token)).expect(200)
    await api.get('/api/me').set(bearer(ada.token)).expect(401)
    await api.get('/api/help').set(bearer(ada.token)).expect(401)
    await api.get('/api/me').set(bearer(ada.token)).expect(200)
  })

  test('the earliest matching scenario answers first', async () => {
    const { api } = server
    const ada = await signUp(api)
    await arm(api, { name: 'access-token-expired', email: ada.email })
    await arm(api, { name: 'access-token-invalid', email: ada.email })
    expect((await api.get('/api/me').set(bearer(ada.token)).expect(401)).body.error).toBe('token_expired')
    expect((await api.get('/api/me').set(bearer(ada.token)).expect(401)).body.error).toBe('token_invalid')
  })

  test('`operation` narrows a scenario to one call; until_cleared keeps it until DELETE', async () => {
    const { api } = server
    const ada = await signUp(api)
    await arm(api, { name: 'server-error', operation: 'getHelp', status: 502, until_cleared: true })
    await api.get('/api/me').set(bearer(ada.token)).expect(200)
    expect((await api.get('/api/help').set(bearer(ada.token)).expect(502)).body.error).toBe('server_error')
    await api.get('/api/help').set(bearer(ada.token)).expect(502)
    expect((await api.get('/__mock/scenarios')).body.armed[0]).toMatchObject({ remaining: null, status: 502 })
    expect((await api.delete('/__mock/scenarios').expect(200)).body).toEqual({ cleared: 1 })
    await api.get('/api/help').set(bearer(ada.token)).expect(200)
  })

  test("DELETE with ?email= clears only that account's scenarios", async () => {
    const { api } = server
    await arm(api, { name: 'server-error', email: 'one@example.test' })
    await arm(api, { name: 'server-error', email: 'two@example.test' })
    expect((await api.delete('/__mock/scenarios?email=one@example.test').expect(200)).body).toEqual({
      cleared: 1,
    })
    expect((await api.get('/__mock/scenarios')).body.armed).toHaveLength(1)
  })

  test('DELETE with an ?email= longer than an address can be is refused, and clears nothing', async () => {
    const { api } = server
    await arm(api, { name: 'server-error', email: 'one@example.test' })
    for (const email of [`${'a'.repeat(250)}@example.test`, 'x'.repeat(255)]) {
      const refused = await api.delete(`/__mock/scenarios?email=${email}`).expect(400)
      expect(refused.body).toMatchObject({
        error: 'validation_failed',
        fields: { email: expect.any(String) },
      })
    }
    expect((await api.get('/__mock/scenarios')).body.armed).toHaveLength(1)
  })

  test('latency delays the answer', async () => {
    const { api } = server
    await arm(api, { name: 'latency', delay_ms: 300, operation: 'getSession' })
    const started = Date.now()
    await api.get('/api/_auth/session').expect(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
  })

  test('legacy-user-fields answers users with userId and emailId', async () => {
    const { api } = server
    const ada = await signUp(api)
    await arm(api, { name: 'legacy-user-fields', email: ada.email, times: 2 })
    const me = await api.get('/api/me').set(bearer(ada.token)).expect(200)
    expect(me.body).toEqual({ userId: ada.user.id, emailId: ada.email, name: 'Test Learner' })
    const session = await api.get('/api/_auth/session').set('Cookie', ada.cookie).expect(200)
    expect(session.body.user).toEqual({ userId: ada.user.id, emailId: ada.email, name: 'Test Learner' })
  })

  test.each([
    ['an unknown name', { name: 'meteor-strike' }, 'name'],
    [
      'an operation the scenario never matches',
      { name: 'refresh-rejected', operation: 'getMe' },
      'operation',
    ],
    ['status on a scenario other than server-error', { name: 'latency', status: 500 }, 'status'],
    ['delay_ms on a scenario other than latency', { name: 'server-error', delay_ms: 5 }, 'delay_ms'],
    ['times of zero', { name: 'server-error', times: 0 }, 'times'],
  ])('refuses %s', async (_label, body, field) => {
    const res = await server.api.post('/__mock/scenarios').send(body).expect(400)
    expect(Object.keys(res.body.fields)).toContain(field)
  })

  test('refuses wrong media types and oversized bodies', async () => {
    await server.api.post('/__mock/scenarios').set('Content-Type', 'text/plain').send('x').expect(415)
    await server.api
      .post('/__mock/scenarios')
      .send({ name: 'latency', message: 'x'.repeat(17_000) })
      .expect(413)
  })
})

describe('mailbox and journal', () => {
  test("the mailbox lists one address's mails, oldest first", async () => {
    const { api } = server
    const email = uniqueEmail()
    await api
      .post('/api/auth/signup')
      .send({ name: 'M', email, password: 'a long enough passphrase' })
      .expect(202)
    await api.post('/__mock/clock').send({ advance_ms: 30_000 }).expect(200)
    await api.post('/api/auth/otp/send').send({ email, purpose: 'signup' }).expect(202)
    const mails = (await api.get(`/__mock/mailbox?email=${email.toUpperCase()}`).expect(200)).body.messages
    expect(mails).toHaveLength(2)
    expect(mails[0]).toMatchObject({ to: email, purpose: 'signup', code: expect.stringMatching(/^\d{6}$/) })
    expect(Date.parse(mails[0].sent_at)).toBeLessThan(Date.parse(mails[1].sent_at))
  })

  test('the journal lists calls in order, per account, since a seq; never a token', async () => {
    const { api } = server
    const ada = await signUp(api)
    const mark = (await api.get(`/__mock/requests?email=${ada.email}`).expect(200)).body.requests.at(-1).seq
    await api.post('/api/refresh_token').send({ refresh_token: ada.refreshToken }).expect(200)
    await api.get('/api/me?x=secret').set(bearer(ada.token)).expect(200)
    const res = await api.get(`/__mock/requests?email=${ada.email}&since=${mark}`).expect(200)
    expect(
      res.body.requests.map((entry: { method: string; path: string; status: number }) => [
        entry.method,
        entry.path,
        entry.status,
      ]),
    ).toEqual([
      ['POST', '/api/refresh_token', 200],
      ['GET', '/api/me', 200],
    ])
    expect(JSON.stringify(res.body)).not.toContain(ada.refreshToken)
    const since = (
      await api.get(`/__mock/requests?since=${encodeURIComponent(res.body.requests[1].at)}`).expect(200)
    ).body
    expect(since.requests[0].path).toBe('/api/me')
  })

  test('refuses a mailbox ?email= longer than an address can be', async () => {
    for (const email of [`${'a'.repeat(250)}@example.test`, 'x'.repeat(255)]) {
      const refused = await server.api.get(`/__mock/mailbox?email=${email}`).expect(400)
      expect(refused.body).toMatchObject({
        error: 'validation_failed',
        fields: { email: expect.any(String) },
      })
    }
  })

  test('refuses a since that is neither a seq nor a date-time', async () => {
    expect(
      (await server.api.get('/__mock/requests?since=yesterday').expect(400)).body.fields.since,
    ).toBeDefined()
  })

  test('a filter mistyped, given twice or empty is refused, never read as no filter', async () => {
    const { api } = server
    await signUp(api)
    const refusals: [string, Record<string, string>][] = [
      ['/__mock/requests?emial=ada@example.com', { emial: 'This field is not allowed.' }],
      ['/__mock/requests?email[]=ada@example.com', { 'email[]': 'This field is not allowed.' }],
      [
        '/__mock/requests?email=ada@example.com&email=grace@example.com',
        { email: 'Give this parameter once.' },
      ],
      ['/__mock/requests?email=', { email: 'This field may not be empty.' }],
      ['/__mock/mailbox?email=', { email: 'This field may not be empty.' }],
    ]
    for (const [path, fields] of refusals) {
      const refused = await api.get(path).expect(400)
      expect(refused.body, path).toMatchObject({ error: 'validation_failed', fields })
    }
    const cleared = await api.delete('/__mock/scenarios?email=').expect(400)
    expect(cleared.body.fields).toEqual({ email: 'This field may not be empty.' })
    // The product API ignores a parameter it does not declare (a cache-buster, a tracker), as clients expect.
    await api.get('/api/_auth/session?_=1&_=2').expect(200)
  })
})

describe('state (GET /__mock/state)', () => {
  test('answers the store, the wrong codes counted, the mailbox, the armed scenarios and the clock', async () => {
    const { api } = server
    const account = await signUp(api)
    // A wrong code from a client that never signed in to the account: counted towards its address's ceiling.
    const ada = 'ada@example.com'
    await api.post('/api/auth/otp/send').send({ email: ada, purpose: 'login' }).expect(202)
    const right = await readCode(api, ada, 'login')
    const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0')
    await api.post('/api/auth/otp/verify').send({ email: ada, code: wrong, purpose: 'login' }).expect(400)
    await arm(api, { name: 'server-error', email: 'ada@example.com', until_cleared: true })
    await api.post('/__mock/clock').send({ advance_ms: 60_000 }).expect(200)
    const state = (await api.get('/__mock/state').expect(200)).body
    const user = state.store.users.find((one: { email: string }) => one.email === account.email)
    expect(user).toMatchObject({ id: account.user.id, name: 'Test Learner', verified: true })
    expect(state.store.users.map((one: { email: string }) => one.email)).toContain('ada@example.com')
    expect(state.store.sessions.filter((one: { userId: string }) => one.userId === user.id)).toHaveLength(1)
    const steps = (await api.get('/api/process').set(bearer(account.token)).expect(200)).body.steps
    expect(state.store.steps.filter((one: { userId: string }) => one.userId === user.id)).toHaveLength(
      steps.length,
    )
    const codes = state.store.codes.map((code: { email: string; purpose: string; attempts: number }) => [
      code.email,
      code.purpose,
      code.attempts,
    ])
    expect(codes).toEqual([
      [account.email, 'signup', 0],
      [ada, 'login', 1],
    ])
    expect(state.guesses).toEqual([{ key: `login:${ada}`, times: [expect.any(Number)] }])
    expect(state.mails).toEqual((await api.get('/__mock/mailbox').expect(200)).body.messages)
    expect(state.scenarios).toEqual((await api.get('/__mock/scenarios').expect(200)).body.armed)
    expect(state.clock.offset_ms).toBeGreaterThanOrEqual(60_000)
  })

  test('carries no secret: every hash a fingerprint, no token, no password', async () => {
    const { api } = server
    const account = await signUp(api)
    const refreshed = await api.post('/api/refresh_token').send({ refresh_token: account.refreshToken })
    expect(refreshed.status).toBe(200)
    const text = (await api.get('/__mock/state').expect(200)).text
    const cookie = account.cookie.split('=')[1]!
    const secrets = [account.token, account.refreshToken, refreshed.body.refresh_token, account.serviceToken]
    for (const secret of [...secrets, cookie, PASSWORD, 'analytical-engine-1843']) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(hashToken(secret))
    }
    expect(text).not.toContain('$argon2')
    // A hash is there as its fingerprint, so a change still shows.
    const state = JSON.parse(text)
    const session = state.store.sessions.find((one: { userId: string }) => one.userId === account.user.id)
    expect(session.cookieHash).toBe(fingerprint(hashToken(cookie)))
    expect(session.serviceTokenHash).toBe(fingerprint(hashToken(account.serviceToken)))
    const [parent] = state.store.refreshTokens.filter(
      (one: { sessionId: string }) => one.sessionId === session.id,
    )
    expect(parent.hash).toBe(fingerprint(hashToken(account.refreshToken)))
    expect(parent.graceBox).toMatch(/^[0-9a-f]{16}$/)
  })

  test("no hash the store holds leaves the server, the seeded passwords' included", async () => {
    requireOwnServer('compares with what the in-process app stores')
    const account = await signUp(server.api)
    await server.api.post('/api/auth/forgot').send({ email: account.email }).expect(202)
    const text = (await server.api.get('/__mock/state').expect(200)).text
    const store = await server.app.core.ops.domain.store.snapshot()
    const stored = [
      ...store.users.map((user) => user.passwordHash),
      ...store.sessions.flatMap((session) => [session.cookieHash, session.serviceTokenHash]),
      ...store.refreshTokens.flatMap((token) => [token.hash, token.graceBox ?? '']),
      ...store.codes.flatMap((code) => [code.hash, code.signup?.passwordHash ?? '']),
      ...store.resetTokens.map((token) => token.hash),
    ].filter((value) => value !== '')
    expect(stored.length).toBeGreaterThan(5)
    for (const value of stored) expect(text).not.toContain(value)
  })
})

describe('the API reference (/__mock/docs)', () => {
  const documentOf = (file: string) => parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'))

  test('a page for each document, linking both, that loads the viewer and the document from this server', async () => {
    for (const [query, document] of [
      ['', 'api'],
      ['?document=api', 'api'],
      ['?document=control', 'control'],
    ] as const) {
      const page = await server.api.get(`/__mock/docs${query}`).expect(200)
      expect(page.text).toContain(`<redoc spec-url="/__mock/docs/${document}.json"></redoc>`)
      expect(page.text).toContain('<script src="/__mock/docs/redoc.standalone.js"></script>')
      expect(page.text).toContain('<a href="/__mock/docs?document=api"')
      expect(page.text).toContain('<a href="/__mock/docs?document=control"')
      // Nothing inline to run, nothing from another host: the security headers every answer carries hold.
      expect(page.text).not.toMatch(/<script>|https?:\/\//)
      expect(page.headers['content-security-policy']).toContain("script-src 'self';")
    }
  })

  test('each document as JSON, as the files say', async () => {
    expect((await server.api.get('/__mock/docs/api.json').expect(200)).body).toEqual(
      documentOf('api/openapi.yaml'),
    )
    expect((await server.api.get('/__mock/docs/control.json').expect(200)).body).toEqual(
      documentOf('api/control.openapi.yaml'),
    )
  })

  test('the viewer is the installed redoc bundle, without the one image it loaded from another host', async () => {
    const installed = readFileSync(
      createRequire(import.meta.url).resolve('redoc/bundles/redoc.standalone.js'),
      'utf8',
    )
    expect(installed).toContain('https://cdn.redoc.ly/redoc/logo-mini.svg')
    const served = await server.api.get('/__mock/docs/redoc.standalone.js').expect(200)
    expect(served.headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect(served.text).not.toContain('cdn.redoc.ly')
    expect(served.text).toBe(installed.replaceAll('https://cdn.redoc.ly/redoc/logo-mini.svg', 'data:,'))
  })

  test('refuses a document it does not have', async () => {
    const page = await server.api.get('/__mock/docs?document=secrets').expect(400)
    expect(page.body.fields.document).toBe('Must be one of: api, control.')
    expect((await server.api.get('/__mock/docs/secrets.json').expect(400)).body.error).toBe(
      'validation_failed',
    )
  })
})

describe('production mode', () => {
  test('answers 404 under /__mock and /idp but serves the API', async () => {
    const production = await serverWith(server, { production: true })
    // Not through the validating agent: in production mode /__mock is not part of what is served. Against a target
    // in production mode, sent to it by fetch, which the run counts.
    const statusOf = async (method: 'GET' | 'POST', path: string): Promise<number> => {
      if (TARGET_URL) {
        const answer = await fetch(`${TARGET_URL}${path}`, {
          method,
          ...(method === 'POST' && { headers: { 'Content-Type': 'application/json' }, body: '{}' }),
        })
        await answer.body?.cancel()
        return answer.status
      }
      const call = request(production.app)[method === 'GET' ? 'get' : 'post'](path)
      return (await (method === 'POST' ? call.send({}) : call)).status
    }
    expect(await statusOf('GET', '/__mock/clock')).toBe(404)
    expect(await statusOf('POST', '/__mock/reset')).toBe(404)
    expect(await statusOf('GET', '/__mock/state')).toBe(404)
    for (const path of ['/__mock/docs', '/__mock/docs/api.json', '/__mock/docs/redoc.standalone.js'])
      expect(await statusOf('GET', path), path).toBe(404)
    await production.api.get('/api/_auth/session').expect(200)
    expect(await statusOf('GET', '/idp/.well-known/openid-configuration')).toBe(404)
  })
})
