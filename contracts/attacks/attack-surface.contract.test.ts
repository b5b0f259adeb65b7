// The mock server's attack surface, one named test per attack it closes (docs/security/surface.md).
import { randomInt } from 'node:crypto'
import { describe, expect, test } from 'vitest'
import { createRoutes } from '#mock-server/pipeline/openapi-docs.ts'
import { SEED_ACCOUNTS } from '#mock-server/product/domain/seed.ts'
import {
  openIdpForm,
  PUBLIC_ORIGIN,
  requireNoExternalSignIn,
  ssoCookieOf,
} from '#contracts/support/external-sign-in.ts'
import {
  advanceClock,
  arm,
  createTestServer,
  limitedServer,
  readCode,
  requireOwnServer,
  startLiveServer,
  signUp,
  unvalidated,
  uniqueEmail,
  PASSWORD,
} from '#contracts/fixtures.ts'
import { notCheckable, requireDirectConnection } from '#contracts/support/target.ts'
import { MANY_CALLS_TIMEOUT_MS } from '#contracts/support/test-server.ts'

const STATE = 'state-0123456789abcdef'
const TOKEN = 'a-control-token-for-this-test'
/** What a page of another site can send: a form post, a fetch from another origin or another port. */
const CROSS_SITE = [
  ['a form post of another site (Sec-Fetch-Site)', { 'Sec-Fetch-Site': 'cross-site' }],
  ['another port of this host (same-site)', { 'Sec-Fetch-Site': 'same-site' }],
  ['a foreign Origin, no Fetch Metadata', { Origin: 'https://evil.example' }],
] as const

/** Every /__mock operation, with a path whose parameters are filled in (a document's name for the docs' JSON). */
const MOCK_OPERATIONS = createRoutes('control')
  .filter((route) => route.template.startsWith('/__mock/'))
  .map((route) => ({
    operationId: route.operationId,
    method: route.method,
    path: route.template.replace('{document}', 'api'),
  }))
/** The API reference's operations (tag docs): held to the server's names, but open without the control token. */
const DOCS_OPERATIONS = MOCK_OPERATIONS.filter((operation) => operation.path.startsWith('/__mock/docs'))
const CONTROL_OPERATIONS = MOCK_OPERATIONS.filter((operation) => !DOCS_OPERATIONS.includes(operation))

describe('production mode authenticates people', () => {
  test('--production: the mock identity provider is off (404)', async () => {
    const production = await createTestServer({ production: true })
    for (const path of [
      '/idp/authorize?client_id=auth-shell',
      '/idp/.well-known/openid-configuration',
      '/idp/jwks',
      '/idp/userinfo',
    ])
      await unvalidated(production).get(path).expect(404)
    const posted = await unvalidated(production)
      .post('/idp/authorize')
      .type('form')
      .send({ email: 'ada@example.com', request: 'any' })
      .expect(404)
    expect(posted.headers.location).toBeUndefined()
    await unvalidated(production)
      .post('/idp/token')
      .type('form')
      .send({ grant_type: 'authorization_code' })
      .expect(404)
  })

  test('--production: external sign-in answers external_sign_in_unavailable and signs no one in', async () => {
    const { api } = await createTestServer({ production: true })
    await requireNoExternalSignIn()
    const start = await api
      .get(`/api/auth/external/authorize?state=${STATE}&redirect_uri=/callback`)
      .expect(404)
    expect(start.body).toEqual({ error: 'external_sign_in_unavailable', message: expect.any(String) })
    const callback = await api.post('/api/auth/callback').send({ code: 'any-code', state: STATE }).expect(404)
    expect(callback.body.error).toBe('external_sign_in_unavailable')
    expect(callback.headers['set-cookie']).toBeUndefined()
  })

  test('--production seeds no demo account: a seed account’s documented password is refused like any unknown account', async () => {
    const production = await createTestServer({ production: true })
    for (const { email, password } of SEED_ACCOUNTS) {
      const refused = await production.api.post('/api/auth/login').send({ email, password }).expect(401)
      const unknown = await production.api
        .post('/api/auth/login')
        .send({ email: uniqueEmail('nobody'), password })
        .expect(401)
      expect(refused.body).toEqual(unknown.body)
    }
  })

  test('--production seeds no demo account: its store holds no user, where development signs the seeds in', async () => {
    requireOwnServer('reads what the in-process app stores')
    const production = await createTestServer({ production: true })
    const development = await createTestServer()
    for (const { email, password, verified } of SEED_ACCOUNTS)
      await development.api
        .post('/api/auth/login')
        .send({ email, password })
        .expect(verified ? 200 : 403)
    expect((await production.app.core.ops.domain.store.snapshot()).users).toEqual([])
  })

  test('--production keeps no request journal: no one could read it, and it would hold every caller’s address', async () => {
    const production = await createTestServer({ production: true })
    await production.api
      .post('/api/auth/login')
      .send({ email: 'ada@example.com', password: 'wrong password 1' })
      .expect(401)
    await production.api.get('/api/me').expect(401)
    expect(await production.app.core.ops.journal.list()).toEqual([])
  })

  test('--production with a configured OpenID provider: external sign-in goes to it through openid-client, and only its codes sign in', async () => {
    // The provider: another server's /idp, reached over HTTP on loopback (the only place plain http is allowed).
    const provider = await startLiveServer()
    const product = `http://localhost:${provider.port + 1}` // any origin of the product's own; never dialled
    const { body: registered } = await provider.api
      .post('/__mock/idp/clients')
      .send({ redirect_uris: [`${product}/callback`] })
      .expect(201)
    await provider.api
      .post('/__mock/idp/accounts')
      .send({ email: 'sso-user@example.test', name: 'Sso User' })
      .expect(201)
    const { api } = await createTestServer({
      production: true,
      publicOrigin: product,
      oidc: {
        issuer: `${provider.origin}/idp`,
        clientId: registered.client_id,
        clientSecret: registered.client_secret,
      },
    })
    const forged = await api.get(`/api/auth/external/authorize?state=${STATE}`).expect(302)
    await api
      .post('/api/auth/callback')
      .set('Cookie', ssoCookieOf(forged.headers['set-cookie']))
      .send({ code: 'forged-code', state: STATE })
      .expect(400)
    const start = await api.get(`/api/auth/external/authorize?state=${STATE}`).expect(302)
    const authorize = new URL(start.headers.location!)
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${provider.origin}/idp/authorize`)
    const cookie = ssoCookieOf(start.headers['set-cookie'])
    authorize.searchParams.set('prompt', 'none')
    authorize.searchParams.set('login_hint', 'sso-user@example.test')
    const back = await fetch(authorize, { redirect: 'manual' })
    const callback = new URL(back.headers.get('location')!)
    expect(`${callback.origin}${callback.pathname}`).toBe(`${product}/callback`)
    const signedIn = await api
      .post('/api/auth/callback')
      .set('Cookie', cookie)
      .send({ code: callback.searchParams.get('code'), state: STATE })
      .expect(200)
    expect(signedIn.body.user).toMatchObject({ email: 'sso-user@example.test', name: 'Sso User' })
  })
})

describe('a control surface only its owner drives', () => {
  test('a cross-site form post to /__mock/reset is refused and wipes nothing', async () => {
    const server = await createTestServer()
    const account = await signUp(server.api, 'survivor')
    const form = { reset: '1' }
    // What a page of another site submits: a plain form post (no preflight), with or without Fetch Metadata.
    const withMetadata = await server.api
      .post('/__mock/reset')
      .type('form')
      .set({ 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' })
      .send(form)
      .expect(403)
    expect(withMetadata.body.error).toBe('cross_site_request')
    const oldBrowser = await server.api.post('/__mock/reset').type('form').send(form).expect(415)
    expect(oldBrowser.body.error).toBe('unsupported_media_type')
    await server.api.post('/__mock/reset').expect(415) // no body at all: a reset takes {}
    await server.api.post('/api/auth/login').send({ email: account.email, password: PASSWORD }).expect(200)
  })

  test.each(CROSS_SITE)(
    'a cross-site JSON write (%s) is refused and changes nothing',
    async (_label, headers) => {
      const { api } = await createTestServer()
      await api.post('/__mock/clock').set(headers).send({ advance_ms: 3_600_000 }).expect(403)
      await api
        .post('/__mock/scenarios')
        .set(headers)
        .send({ name: 'server-error', until_cleared: true })
        .expect(403)
      await api.delete('/__mock/scenarios').set(headers).expect(403)
      await api.post('/__mock/reset').set(headers).send({}).expect(403)
      expect(Math.abs((await api.get('/__mock/clock').expect(200)).body.offset_ms)).toBe(0)
      expect((await api.get('/__mock/scenarios').expect(200)).body.armed).toEqual([])
    },
  )

  test('a write of this site (same-origin) goes through', async () => {
    const { api } = await createTestServer()
    const self = await api.post('/__mock/clock').set('Sec-Fetch-Site', 'same-origin').send({ advance_ms: 1 })
    expect(self.status).toBe(200)
    await api.post('/__mock/reset').set('Sec-Fetch-Site', 'same-origin').send({}).expect(200)
  })

  test('a DNS-rebinding Host reads no mailbox', async () => {
    const server = await createTestServer()
    const email = uniqueEmail('rebind')
    await server.api.post('/api/auth/signup').send({ name: 'Victim', email, password: PASSWORD }).expect(202)
    const rebound = await server.api
      .get(`/__mock/mailbox?email=${encodeURIComponent(email)}`)
      .set('Host', 'rebind.evil.example:4010')
      .expect(403)
    expect(rebound.body).toEqual({ error: 'host_not_allowed', message: expect.any(String) })
    expect(JSON.stringify(rebound.body)).not.toMatch(/\d{6}/)
    // The same page's write is refused too, before anything else is looked at.
    await server.api.post('/__mock/reset').set('Host', 'rebind.evil.example').send({}).expect(403)
    const own = await server.api.get(`/__mock/mailbox?email=${encodeURIComponent(email)}`).expect(200)
    expect(own.body.messages).toHaveLength(1)
  })

  test('a name given with --allow-host, localhost and the IPv6 loopback are answered', async () => {
    const { api } = await createTestServer({ allowedHosts: ['qa.internal'] })
    for (const host of ['qa.internal:4010', 'QA.internal.', 'localhost:4010', '[::1]:4010', '127.0.0.1'])
      await api.get('/__mock/clock').set('Host', host).expect(200)
    for (const host of ['qa.internal.evil.example', 'localhost.evil.example', 'x@localhost', ''])
      await api.get('/__mock/clock').set('Host', host).expect(403)
  })

  test('with a control token set, a request without it is refused', async () => {
    const server = await createTestServer({ controlToken: TOKEN })
    const stranger = server.stranger // no token
    const missing = await stranger.get('/__mock/mailbox').expect(401)
    expect(missing.body.error).toBe('control_token_required')
    await stranger.get('/__mock/mailbox').set('X-Mock-Control-Token', `${server.controlToken}x`).expect(401)
    await stranger.post('/__mock/reset').send({}).expect(401)
    await stranger.get('/api/_auth/session').expect(200) // the product API does not need it
    // The suite's own helpers pass it (contracts/fixtures.ts).
    const account = await signUp(server.api, 'token')
    expect(await readCode(server.api, account.email, 'signup')).toMatch(/^\d{6}$/)
    await advanceClock(server.api, 1_000)
    await arm(server.api, { name: 'latency', email: account.email })
    await server.api.post('/__mock/reset').send({}).expect(200)
  })

  test.each(CONTROL_OPERATIONS)(
    '$operationId ($method $path): refused for a foreign Host (403) and without the token (401)',
    async ({ method, path }) => {
      const server = await createTestServer({ controlToken: TOKEN })
      const foreign = await server.api.request(method, path).set('Host', 'attacker.example').expect(403)
      expect(foreign.body.error).toBe('host_not_allowed')
      const stranger = server.stranger
      expect((await stranger.request(method, path).expect(401)).body.error).toBe('control_token_required')
    },
  )

  test.each(DOCS_OPERATIONS)(
    '$operationId ($method $path): refused for a foreign Host (403), answered without the token, which a page cannot send',
    async ({ method, path }) => {
      const server = await createTestServer({ controlToken: TOKEN })
      const foreign = await server.api.request(method, path).set('Host', 'rebind.evil.example').expect(403)
      expect(foreign.body.error).toBe('host_not_allowed')
      const stranger = server.stranger
      await stranger.request(method, path).expect(200)
      // Nothing else of /__mock opens to it: the mailbox, say, still asks for the token.
      expect((await stranger.get('/__mock/mailbox').expect(401)).body.error).toBe('control_token_required')
    },
  )

  test('the API reference has exactly its three operations, so no other control path escapes the token', () => {
    expect(DOCS_OPERATIONS.map((operation) => operation.operationId).sort()).toEqual([
      'getDocsDocument',
      'getDocsViewer',
      'showApiDocs',
    ])
  })

  /** A server whose identity provider's form was opened for the product's sign-in; posts to it as a browser would. */
  async function openForm(options: { controlToken?: string } = {}) {
    const server = await createTestServer({ publicOrigin: PUBLIC_ORIGIN, ...options })
    const { request: id, html, provider } = await openIdpForm(server.api, STATE)
    if (provider.agent !== server.api)
      notCheckable(
        `checks the mock server's own identity provider, and the target's is ${provider.url.origin}`,
      )
    const post = (fields: Record<string, string>) =>
      server.api
        .post('/idp/authorize')
        .type('form')
        .send(new URLSearchParams({ request: id, email: 'ada@example.com', ...fields }).toString())
    return { server, html, post }
  }

  test('the identity provider answers only at this server’s own names: a DNS-rebinding page gets no sign-in', async () => {
    const { server, post } = await openForm()
    const page = await server.api
      .get('/idp/authorize?client_id=auth-shell')
      .set('Host', 'rebind.evil.example:4010')
      .expect(403)
    expect(page.body.error).toBe('host_not_allowed')
    const refused = await post({}).set('Host', 'rebind.evil.example:4010').expect(403)
    expect(refused.body.error).toBe('host_not_allowed')
    expect(refused.headers.location).toBeUndefined()
    await post({}).expect(302) // at its own name it signs in, as in development it should
  })

  test.each(CROSS_SITE)(
    'the identity provider’s form takes no post from another site: %s',
    async (_label, headers) => {
      const { post } = await openForm()
      const refused = await post({}).set(headers).expect(403)
      expect(refused.body.error).toBe('cross_site_request')
      expect(refused.headers.location).toBeUndefined()
      await post({}).set('Sec-Fetch-Site', 'same-origin').expect(302)
    },
  )

  test('with a control token set, the identity provider asks for it (its field, or the header) and signs no one in without it', async () => {
    const { server, html, post } = await openForm({ controlToken: TOKEN })
    // A target is checked with the token it was started with.
    const token = server.controlToken ?? TOKEN
    expect(html).toContain('name="control_token"')
    // The form's field, as a person types it (the agent's own header replaced by a wrong one).
    for (const fields of [{}, { control_token: `${token}x` }, { control_token: '' }] as Record<
      string,
      string
    >[]) {
      const refused = await post(fields).set('X-Mock-Control-Token', `${token}x`).expect(401)
      expect(refused.body.error).toBe('control_token_required')
    }
    const signedIn = await post({ control_token: token }).set('X-Mock-Control-Token', `${token}x`).expect(302)
    const back = new URL(signedIn.headers.location!)
    expect(`${back.origin}${back.pathname}`).toBe(`${PUBLIC_ORIGIN}/callback`)
    expect(back.search).toMatch(/^\?code=[^&]+&state=/)
    // Or the header, which no other site's form can send.
    const scripted = await openForm({ controlToken: TOKEN })
    await scripted.post({}).set('X-Mock-Control-Token', token).expect(302)
  })

  test('without a control token the identity provider’s form has no such field', async () => {
    const { server, html } = await openForm()
    if (server.controlToken !== undefined)
      notCheckable('needs a server without a control token, and the target was started with one')
    expect(html).not.toContain('control_token')
  })

  test('a write whose body is not JSON is refused (415), and a reset takes exactly {}', async () => {
    const { api } = await createTestServer()
    await api.delete('/__mock/scenarios').type('form').send({ a: '1' }).expect(415)
    await api.post('/__mock/reset').set('Content-Type', 'text/plain').send('{}').expect(415)
    await api.post('/__mock/reset').set('Content-Type', 'application/json').send('{').expect(400)
    await api.post('/__mock/reset').send({ everything: true }).expect(400)
    await api
      .post('/__mock/reset')
      .send({ pad: 'x'.repeat(17_000) })
      .expect(413)
  })

  test('T17: a cross-site DELETE /api/_auth/session is refused and ends nothing', async () => {
    const server = await createTestServer()
    const account = await signUp(server.api, 't17')
    for (const [, headers] of CROSS_SITE) {
      const res = await server.api
        .delete('/api/_auth/session')
        .set('Cookie', account.cookie)
        .set(headers)
        .expect(403)
      expect(res.body.error).toBe('cross_site_request')
      expect(res.headers['set-cookie']).toBeUndefined()
    }
    const session = await server.api.get('/api/_auth/session').set('Cookie', account.cookie).expect(200)
    expect(session.body.user.email).toBe(account.email)
  })
})

describe('proxies and limiter', { timeout: MANY_CALLS_TIMEOUT_MS }, () => {
  const LIMIT = { max: 3, windowMs: 15 * 60_000 }
  /**
   * A wrong sign-in to `email` from `forwardedFor`. Each check guesses at an unknown address of its own, and probes
   * another client with another: past 100 failures an account's new clients are slowed (docs/security/lockout.md),
   * and a target keeps its counts across runs.
   */
  const attempt = (
    api: Awaited<ReturnType<typeof createTestServer>>['api'],
    forwardedFor: string,
    email: string,
  ) =>
    api
      .post('/api/auth/login')
      .set('X-Forwarded-For', forwardedFor)
      .send({ email, password: 'not the password' })
  // Fresh addresses each run: a target keeps a client's budget for its window, past the run that spent it.
  const anyIPv4 = () => `198.${randomInt(18, 20)}.${randomInt(256)}.${randomInt(1, 255)}`
  const anyIPv6Net = () => `2001:db8:${randomInt(65536).toString(16)}:${randomInt(65536).toString(16)}`
  /** The sign-in limit of a server that trusts `hops` proxies: a small one in process, a target's own. */
  const limitedBehind = (hops: number) =>
    limitedServer('loginRateLimit', LIMIT, undefined, { trustProxyHops: hops })

  test('one client inventing X-Forwarded-For entries gets no fresh sign-in budget (--trust-proxy 1)', async () => {
    const { server, limit } = await limitedBehind(1)
    // The client writes an entry of its own each time; its one proxy appends the address it really saw.
    const real = anyIPv4()
    const email = uniqueEmail('nobody')
    const statuses: number[] = []
    for (let i = 1; i <= limit.max + 2; i += 1)
      statuses.push((await attempt(server.api, `${anyIPv4()}, ${real}`, email)).status)
    expect(statuses).toEqual([...Array<number>(limit.max).fill(401), 429, 429])
    const other = await attempt(server.api, `${anyIPv4()}, ${anyIPv4()}`, uniqueEmail('nobody'))
    expect(other.status, 'another real client').toBe(401)
  })

  test('two IPv6 addresses in one /64 share a budget', async () => {
    const { server, limit } = await limitedBehind(1)
    const net = anyIPv6Net()
    const email = uniqueEmail('nobody')
    const statuses: number[] = []
    for (let i = 1; i <= limit.max + 1; i += 1) {
      const address = i % 2 === 0 ? `${net}::a` : `${net}:ffff:ffff:ffff:ffff`
      statuses.push((await attempt(server.api, address, email)).status)
    }
    expect(statuses).toEqual([...Array<number>(limit.max).fill(401), 429])
    const next = await attempt(server.api, `${anyIPv6Net()}::a`, uniqueEmail('nobody'))
    expect(next.status, 'the next /64').toBe(401)
  })

  test('without --trust-proxy, X-Forwarded-For is not read at all', async () => {
    requireDirectConnection('a proxy in front of the target writes X-Forwarded-For itself')
    const { server: limited, limit } = await limitedBehind(0)
    const email = uniqueEmail('nobody')
    const statuses: number[] = []
    for (let i = 1; i <= limit.max + 1; i += 1)
      statuses.push((await attempt(limited.api, anyIPv4(), email)).status)
    expect(statuses).toEqual([...Array<number>(limit.max).fill(401), 429])
  })
})
