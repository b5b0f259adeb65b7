// The product's external sign-in, a relying party (openid-client) of the OpenID provider the mock server plays.
import { describe, expect, test } from 'vitest'
import { expectMalformedRefused, uniqueEmail, useTestServer } from '#contracts/fixtures.ts'
import { getProjectValidator } from '#contracts/support/openapi-validator.ts'
import {
  exchangeCallback,
  openIdpForm,
  providerOf,
  PUBLIC_ORIGIN,
  signInAtIdp,
  ssoCookieOf,
} from '#contracts/support/external-sign-in.ts'

describe('external sign-in', () => {
  const STATE = 'state-0123456789abcdef'
  const server = useTestServer({ publicOrigin: PUBLIC_ORIGIN })

  test('the authorization request is the code flow with PKCE S256, a nonce, the app’s state and an absolute redirect_uri', async () => {
    const start = await server.api
      .get(`/api/auth/external/authorize?state=${STATE}&redirect_uri=/callback`)
      .expect(302)
    const provider = providerOf(server.api, start.headers.location!)
    expect(Object.fromEntries(provider.url.searchParams)).toEqual({
      client_id: provider.clientId,
      response_type: 'code',
      scope: 'openid email profile',
      redirect_uri: `${PUBLIC_ORIGIN}/callback`,
      state: STATE,
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: 'S256',
    })
    expect(start.headers['set-cookie']).toEqual([
      expect.stringMatching(/^sso=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=600$/),
    ])
  })

  test('the code and state are exchanged for a session, once', async () => {
    const email = uniqueEmail('sso')
    const back = await signInAtIdp(server.api, {
      controlToken: server.controlToken,
      email,
      name: 'Sso User',
      state: STATE,
    })
    const res = await exchangeCallback(server.api, back).expect(200)
    expect(res.body.user).toMatchObject({ email, name: 'Sso User' })
    const again = await exchangeCallback(server.api, back).expect(400)
    expect(again.body.error).toBe('invalid_callback')
  })

  test('a forged state is refused', async () => {
    const back = await signInAtIdp(server.api, {
      controlToken: server.controlToken,
      email: uniqueEmail('sso'),
      state: STATE,
    })
    await exchangeCallback(server.api, { ...back, state: 'forged-state-000000' }).expect(400)
  })

  test('a code and state lifted from another browser’s callback sign no one in without that browser’s cookie', async () => {
    const { code } = await signInAtIdp(server.api, {
      controlToken: server.controlToken,
      email: uniqueEmail('victim'),
      state: STATE,
    })
    const other = ssoCookieOf(
      (await server.api.get('/api/auth/external/authorize?state=attacker-state-0123456').expect(302)).headers[
        'set-cookie'
      ],
    )
    for (const cookie of [other, ''])
      await exchangeCallback(server.api, { code, state: STATE, cookie }).expect(400)
  })

  test('two sign-ins of one browser (two tabs) share its cookie, and each completes', async () => {
    const controlToken = server.controlToken
    const first = await openIdpForm(server.api, 'tab-one-state-0123456')
    const second = await server.api
      .get('/api/auth/external/authorize?state=tab-two-state-0123456')
      .set('Cookie', first.cookie)
      .expect(302)
    expect(ssoCookieOf(second.headers['set-cookie'])).toBe(first.cookie)
    // The second tab's start must not cancel the first's: both finish, in either order.
    const tabs = []
    for (const state of ['tab-one-state-0123456', 'tab-two-state-0123456'])
      tabs.push(
        await signInAtIdp(server.api, {
          controlToken,
          email: uniqueEmail('tab'),
          state,
          cookie: first.cookie,
        }),
      )
    for (const tab of tabs.reverse()) await exchangeCallback(server.api, tab).expect(200)
  })

  test('a redirect_uri with a query of its own is kept, and the code still exchanges', async () => {
    const email = uniqueEmail('query')
    const back = await signInAtIdp(server.api, {
      controlToken: server.controlToken,
      email,
      state: STATE,
      redirect: '/callback?from=sso',
    })
    expect(back.location.searchParams.get('from')).toBe('sso')
    await exchangeCallback(server.api, back).expect(200)
  })
})

// Refusals by the document itself, before any operation runs: the same whether the server offers external sign-in
// or not, so they need no provider and run against any target.
describe('external sign-in requests the document refuses', () => {
  const STATE = 'state-0123456789abcdef'
  const server = useTestServer()

  test('redirects only to paths of this site', async () => {
    const { api } = server
    const res = await api
      .get(`/api/auth/external/authorize?state=${STATE}&redirect_uri=https://evil.example/cb`)
      .expect(400)
    expect(res.body.fields.redirect_uri).toBeDefined()
    await api.get(`/api/auth/external/authorize?state=${STATE}&redirect_uri=//evil.example`).expect(400)
    await api.get('/api/auth/external/authorize').expect(400)
  })

  test.each(['/a/..//evil.example', '/x/%2e%2e//evil.example', '/a/.%2E//evil.example', '/.//evil.example'])(
    'a redirect_uri a browser reads as another host (%s) is refused by the schema itself',
    async (path) => {
      const url = `/api/auth/external/authorize?state=${STATE}&redirect_uri=${encodeURIComponent(path)}`
      // The document states the rule: an outside judge refuses the request before any server does.
      expect(getProjectValidator().validateRequest({ method: 'GET', url, headers: {} })).not.toEqual([])
      const res = await server.api.get(url).expect(400)
      expect(res.body).toMatchObject({
        error: 'validation_failed',
        fields: { redirect_uri: expect.any(String) },
      })
    },
  )

  test('refuses malformed requests', async () => {
    const { api } = server
    await expectMalformedRefused(api, '/api/auth/callback', {
      invalid: { code: 'x' },
      oversized: { code: 'x'.repeat(17_000), state: 'y' },
    })
  })
})
