// The mock OpenID provider (/idp) driven over real HTTP by openid-client, the certified library the product uses.
// Every answer is validated against mock-server/control.openapi.yaml, then each documented refusal is checked.
import * as client from 'openid-client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectMalformedRefused, startLiveServer, type LiveServer } from '#contracts/fixtures.ts'
import { requireValidFetchResponse } from '#contracts/support/api.ts'
import { createRoutes } from '#mock-server/pipeline/openapi-docs.ts'

let live: LiveServer
beforeAll(async () => {
  live = await startLiveServer()
})
afterAll(() => live?.close())

/** The library's fetch, each answer validated and recorded like every contract call. */
const validatingFetch: client.DiscoveryRequestOptions[typeof client.customFetch] = async (url, options) => {
  const response = await fetch(url, options as RequestInit)
  const { pathname, search } = new URL(url)
  await requireValidFetchResponse(options.method, `${pathname}${search}`, response)
  return response
}

/** The library's configuration for a client registered through /__mock (http: the provider is on loopback). */
async function discover(registration: { public?: boolean } = {}) {
  const redirectUri = `https://rp.example/callback/${Math.random().toString(36).slice(2)}`
  const registered = await live.api
    .post('/__mock/idp/clients')
    .send({ redirect_uris: [redirectUri], ...registration })
    .expect(201)
  const { client_id, client_secret } = registered.body as { client_id: string; client_secret?: string }
  const config = await client.discovery(
    new URL(`${live.origin}/idp`),
    client_id,
    client_secret,
    client_secret === undefined ? client.None() : client.ClientSecretBasic(client_secret),
    { execute: [client.allowInsecureRequests], [client.customFetch]: validatingFetch },
  )
  client.enableNonRepudiationChecks(config)
  return { config, redirectUri, clientId: client_id }
}

/** The provider's answer to an authorization URL, as the browser would follow it (not followed further). */
async function follow(url: URL, headers: Record<string, string> = {}): Promise<Response> {
  const response = await fetch(url, { redirect: 'manual', headers })
  await requireValidFetchResponse('GET', `${url.pathname}${url.search}`, response)
  return response
}

async function authorizationUrl(
  config: client.Configuration,
  redirectUri: string,
  extra: Record<string, string>,
) {
  const codeVerifier = client.randomPKCECodeVerifier()
  const state = client.randomState()
  const nonce = client.randomNonce()
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...extra,
  })
  return { url, codeVerifier, state, nonce }
}

describe('the provider through openid-client', () => {
  test.each([
    ['a confidential client (client_secret_basic)', {}],
    ['a public client (none, PKCE alone)', { public: true }],
  ])(
    '%s: discovery, prompt=none with login_hint, the code grant, the ID token, userinfo',
    async (_label, kind) => {
      const { config, redirectUri, clientId } = await discover(kind)
      const metadata = config.serverMetadata()
      expect(metadata.issuer).toBe(`${live.origin}/idp`)
      const { url, codeVerifier, state, nonce } = await authorizationUrl(config, redirectUri, {
        prompt: 'none',
        login_hint: 'ada@example.com',
      })
      const back = await follow(url)
      expect(back.status).toBe(302)
      const callback = new URL(back.headers.get('location')!)
      expect(`${callback.origin}${callback.pathname}`).toBe(redirectUri)
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: codeVerifier,
        expectedState: state,
        expectedNonce: nonce,
      })
      const claims = tokens.claims()!
      expect(claims).toMatchObject({
        iss: metadata.issuer,
        aud: clientId,
        nonce,
        email: 'ada@example.com',
        email_verified: true,
      })
      expect(claims.exp).toBeGreaterThan(Date.now() / 1000)
      const userinfo = await client.fetchUserInfo(config, tokens.access_token, claims.sub)
      expect(userinfo).toEqual({
        sub: claims.sub,
        email: 'ada@example.com',
        email_verified: true,
        name: 'Ada Lovelace',
      })
      // The subject is stable: the next sign-in of the same account names the same one.
      const again = await authorizationUrl(config, redirectUri, {
        prompt: 'none',
        login_hint: 'ada@example.com',
      })
      const second = await client.authorizationCodeGrant(
        config,
        new URL((await follow(again.url)).headers.get('location')!),
        {
          pkceCodeVerifier: again.codeVerifier,
          expectedState: again.state,
          expectedNonce: again.nonce,
        },
      )
      expect(second.claims()!.sub).toBe(claims.sub)
    },
  )

  test('an unknown login_hint with prompt=none comes back as login_required with the state, and the library says so', async () => {
    const { config, redirectUri } = await discover()
    const { url, codeVerifier, state } = await authorizationUrl(config, redirectUri, {
      prompt: 'none',
      login_hint: 'nobody@example.com',
    })
    const callback = new URL((await follow(url)).headers.get('location')!)
    expect(callback.searchParams.get('state')).toBe(state)
    const refused = client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
    })
    await expect(refused).rejects.toMatchObject({ error: 'login_required' })
  })

  test('an account added through /__mock signs in; a reused code is refused by the provider (invalid_grant)', async () => {
    const { config, redirectUri } = await discover()
    const added = await live.api
      .post('/__mock/idp/accounts')
      .send({ email: 'Added@Example.com', name: 'Added' })
      .expect(201)
    expect(added.body).toEqual({ sub: expect.any(String), email: 'added@example.com', name: 'Added' })
    const { url, codeVerifier, state, nonce } = await authorizationUrl(config, redirectUri, {
      prompt: 'none',
      login_hint: 'added@example.com',
    })
    const callback = new URL((await follow(url)).headers.get('location')!)
    const checks = { pkceCodeVerifier: codeVerifier, expectedState: state, expectedNonce: nonce }
    const tokens = await client.authorizationCodeGrant(config, callback, checks)
    expect(tokens.claims()).toMatchObject({ sub: added.body.sub, name: 'Added' })
    await expect(client.authorizationCodeGrant(config, callback, checks)).rejects.toMatchObject({
      error: 'invalid_grant',
    })
  })

  test('without prompt=none the sign-in form is shown, filled with the hint', async () => {
    const { config, redirectUri } = await discover()
    const { url } = await authorizationUrl(config, redirectUri, { login_hint: 'ada@example.com' })
    const page = await follow(url)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('value="ada@example.com"')
  })
})

describe('the provider’s refusals, each documented', () => {
  const IDP_ROUTES = createRoutes('control')
    .filter((route) => route.template.startsWith('/idp/'))
    .map((route) => ({ operationId: route.operationId, method: route.method, path: route.template }))

  test.each(IDP_ROUTES)('$operationId ($method $path): a foreign Host gets 403', async ({ method, path }) => {
    const res = await live.api.request(method, path).set('Host', 'rebind.evil.example').expect(403)
    expect(res.body.error).toBe('host_not_allowed')
  })

  test('a relative redirect_uri gets a 400 page, never a redirect', async () => {
    const res = await live.api
      .get(
        '/idp/authorize?client_id=auth-shell&redirect_uri=/callback&response_type=code&scope=openid&state=s',
      )
      .expect(400)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.headers.location).toBeUndefined()
  })

  test('the form: an unknown request is a 400 page, a body off its schema a 400, a non-form body 415, a big one 413', async () => {
    const page = await live.api
      .post('/idp/authorize')
      .type('form')
      .send({ request: 'unknown', email: 'a@example.com' })
    expect([page.status, page.headers['content-type']]).toEqual([400, expect.stringMatching(/^text\/html/)])
    const invalid = await live.api
      .post('/idp/authorize')
      .type('form')
      .send({ request: 'x', email: 'not an address' })
    expect([invalid.status, invalid.body.error]).toEqual([400, 'validation_failed'])
    await live.api.post('/idp/authorize').send({ request: 'x', email: 'a@example.com' }).expect(415)
    await live.api
      .post('/idp/authorize')
      .type('form')
      .send({ request: 'x'.repeat(17_000), email: 'a@example.com' })
      .expect(413)
  })

  test('the form of a server with a control token signs no one in without it (401)', async () => {
    const guarded = await startLiveServer({ controlToken: 'a-control-token' })
    const refused = await guarded.stranger
      .post('/idp/authorize')
      .type('form')
      .send({ request: 'x', email: 'a@example.com' })
      .expect(401)
    expect(refused.body.error).toBe('control_token_required')
  })

  test('the token endpoint: RFC 6749 errors, never cached, readable from any origin, posted to from any site', async () => {
    const token = (body: Record<string, string>) =>
      live.api.post('/idp/token').type('form').set('Sec-Fetch-Site', 'cross-site').send(body)
    const unsupported = await token({ grant_type: 'password', client_id: 'auth-shell' }).expect(401)
    expect(unsupported.body.error).toBe('invalid_client')
    const { body: registered } = await live.api
      .post('/__mock/idp/clients')
      .send({ redirect_uris: ['https://rp.example/cb'], public: true })
      .expect(201)
    const grant = await token({
      grant_type: 'refresh_token',
      client_id: registered.client_id,
      refresh_token: 'x',
    })
    expect([grant.status, grant.body.error]).toEqual([400, 'unsupported_grant_type'])
    const reused = await token({
      grant_type: 'authorization_code',
      client_id: registered.client_id,
      code: 'never-issued',
      redirect_uri: 'https://rp.example/cb',
      code_verifier: 'v'.repeat(43),
    })
    expect([reused.status, reused.body.error]).toEqual([400, 'invalid_grant'])
    for (const res of [unsupported, grant, reused]) {
      expect(res.headers['cache-control']).toBe('no-store')
      expect(res.headers['access-control-allow-origin']).toBe('*')
      expect(res.headers['access-control-allow-credentials']).toBeUndefined()
    }
    const basic = await live.api
      .post('/idp/token')
      .type('form')
      .auth('auth-shell', 'not-the-secret')
      .send({ grant_type: 'authorization_code', code: 'x', redirect_uri: 'https://rp.example/cb' })
      .expect(401)
    expect(basic.headers['www-authenticate']).toMatch(/^Basic /)
    await live.api.post('/idp/token').send({ grant_type: 'authorization_code' }).expect(415)
    await live.api
      .post('/idp/token')
      .type('form')
      .send({ grant_type: 'x'.repeat(17_000) })
      .expect(413)
  })

  test('userinfo without a live token is 401 with WWW-Authenticate, by GET and by POST', async () => {
    const none = await live.api.get('/idp/userinfo').expect(401)
    expect(none.headers['www-authenticate']).toBe('Bearer realm="idp"')
    const bad = await live.api.post('/idp/userinfo').set('Authorization', 'Bearer not-a-token').expect(401)
    expect(bad.headers['www-authenticate']).toBe('Bearer realm="idp", error="invalid_token"')
    expect(bad.body.error).toBe('invalid_token')
  })

  test('userinfo by POST answers the claims of a live token', async () => {
    const { config, redirectUri } = await discover()
    const { url, codeVerifier, state, nonce } = await authorizationUrl(config, redirectUri, {
      prompt: 'none',
      login_hint: 'grace@example.com',
    })
    const callback = new URL((await follow(url)).headers.get('location')!)
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: codeVerifier,
      expectedState: state,
      expectedNonce: nonce,
    })
    const res = await live.api
      .post('/idp/userinfo')
      .set('Authorization', `Bearer ${tokens.access_token}`)
      .expect(200)
    expect(res.body).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper' })
    expect(res.headers['access-control-allow-origin']).toBe('*')
  })

  test.each(['/idp/token', '/idp/userinfo'])(
    '%s answers a CORS preflight for any origin, without credentials',
    async (path) => {
      const res = await live.api
        .options(path)
        .set('Origin', 'https://rp.example')
        .set('Access-Control-Request-Method', 'POST')
        .expect(204)
      expect(res.headers['access-control-allow-origin']).toBe('*')
      expect(res.headers['access-control-allow-headers']).toContain('authorization')
      expect(res.headers['access-control-allow-credentials']).toBeUndefined()
    },
  )

  test.each([
    ['/__mock/idp/accounts', { email: 'not an address' }],
    ['/__mock/idp/clients', { redirect_uris: ['/relative'] }],
  ])('%s refuses a body off its schema (400), not JSON (415), too big (413)', async (path, bad) => {
    await expectMalformedRefused(live.api, path, { invalid: bad, oversized: { pad: 'x'.repeat(17_000) } })
  })
})
