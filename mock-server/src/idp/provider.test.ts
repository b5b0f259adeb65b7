// The OpenID provider's rules (idp/provider.ts), one per row of docs/decisions/022-openid-provider.md: the RFC 6749
// and RFC 7636 errors, single-use codes, the 400 page for a redirect it must not follow, prompt=none with a
// login_hint, the ID token's claims; and, through the server's pipeline, an issuer that follows the Host.
import { createHash } from 'node:crypto'
import { createLocalJWKSet, decodeJwt, jwtVerify } from 'jose'
import { beforeEach, describe, expect, test } from 'vitest'
import { createControlClock } from '../shared/control-clock.ts'
import { createMockCore } from '../core.ts'
import { bodyFrom, bodyText } from '../pipeline/raw.ts'
import { PRODUCT_CLIENT_ID } from './clients.ts'
import { createOpenIdProvider, type OpenIdProvider } from './provider.ts'

const ISSUER = 'http://127.0.0.1:4010/idp'
const REDIRECT = 'http://127.0.0.1:4010/callback'
const VERIFIER = 'a-code-verifier-of-at-least-forty-three-characters-0123456789'
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url')
const STATE = 'state-0123456789abcdef'
/** The accounts the provider starts with (core.ts hands it the product's verified seed accounts). */
const SEEDS = [{ email: 'ada@example.com', name: 'Ada Lovelace' }]

let idp: OpenIdProvider
let clock: ReturnType<typeof createControlClock>
beforeEach(() => {
  clock = createControlClock()
  idp = createOpenIdProvider({ clock, seedAccounts: SEEDS })
})

const query = (overrides: Record<string, string | undefined> = {}) =>
  Object.fromEntries(
    Object.entries({
      client_id: PRODUCT_CLIENT_ID,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'openid email profile',
      state: STATE,
      nonce: 'n-0123456789',
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      prompt: 'none',
      login_hint: 'ada@example.com',
      ...overrides,
    }).filter(([, value]) => value !== undefined),
  ) as Record<string, string>

async function authorize(overrides: Record<string, string | undefined> = {}, token?: string) {
  const answer = await idp.authorize(query(overrides), ISSUER, token)
  if (answer.kind !== 'redirect') return { answer, location: null }
  return { answer, location: new URL(answer.location) }
}

async function codeFor(overrides: Record<string, string | undefined> = {}): Promise<string> {
  const code = (await authorize(overrides)).location?.searchParams.get('code')
  if (!code) throw new Error('Failed to get a code.')
  return code
}

const secret = () => idp.clients.product.client_secret!
const tokenRequest = (code: string, overrides: Record<string, string | undefined> = {}) =>
  idp.token(
    Object.fromEntries(
      Object.entries({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        code_verifier: VERIFIER,
        client_id: PRODUCT_CLIENT_ID,
        client_secret: secret(),
        ...overrides,
      }).filter(([, value]) => value !== undefined),
    ),
    undefined,
    ISSUER,
  )

describe('the authorization endpoint', async () => {
  test.each([
    ['no client_id', { client_id: undefined }],
    ['an unknown client', { client_id: 'nobody' }],
    ['no redirect_uri', { redirect_uri: undefined }],
    ['a relative redirect_uri', { redirect_uri: '/callback' }],
    ['a scheme-relative redirect_uri', { redirect_uri: '//evil.example/callback' }],
    ['a redirect_uri of another origin', { redirect_uri: 'https://evil.example/callback' }],
    ['a javascript: redirect_uri', { redirect_uri: 'javascript:alert(1)' }],
    ['a redirect_uri with a fragment', { redirect_uri: `${REDIRECT}#x` }],
  ])('%s gets a 400 page, never a redirect', async (_label, overrides) => {
    const { answer } = await authorize(overrides)
    expect(answer).toMatchObject({ kind: 'page', status: 400 })
    expect(answer.kind === 'page' && answer.html).toContain('Sign-in request refused')
  })

  test.each([
    ['no response_type', { response_type: undefined }, 'invalid_request'],
    ['response_type=token', { response_type: 'token' }, 'unsupported_response_type'],
    ['a scope without openid', { scope: 'email' }, 'invalid_scope'],
    ['no code_challenge (PKCE is required)', { code_challenge: undefined }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method', { code_challenge_method: undefined }, 'invalid_request'],
    ['a code_challenge that is no S256 digest', { code_challenge: 'short' }, 'invalid_request'],
    ['response_mode=fragment', { response_mode: 'fragment' }, 'invalid_request'],
    ['prompt=none with another prompt', { prompt: 'none login' }, 'invalid_request'],
    ['prompt=none with an unknown login_hint', { login_hint: 'nobody@example.com' }, 'login_required'],
    ['prompt=none without a login_hint', { login_hint: undefined }, 'login_required'],
  ])('%s goes back with error=%s and the state', async (_label, overrides, error) => {
    const { location } = await authorize(overrides)
    expect(location?.origin + location!.pathname).toBe(REDIRECT)
    expect(Object.fromEntries(location!.searchParams)).toEqual({
      error,
      error_description: expect.any(String),
      state: STATE,
    })
  })

  test('prompt=none with a known login_hint goes straight back with a code and the state', async () => {
    const { location } = await authorize()
    expect([...location!.searchParams.keys()]).toEqual(['code', 'state'])
    expect(location!.searchParams.get('state')).toBe(STATE)
  })

  test('without prompt=none the form is shown, filled with the hint, and its answer sends the code back', async () => {
    const { answer } = await authorize({ prompt: undefined })
    expect(answer).toMatchObject({ kind: 'page', status: 200 })
    const html = answer.kind === 'page' ? answer.html : ''
    expect(html).toContain('value="ada@example.com"')
    const request = /name="request" value="([^"]+)"/.exec(html)![1]!
    const back = await idp.submit({ request, email: 'new@example.com', name: 'New Person' })
    expect(back.kind === 'redirect' && new URL(back.location).searchParams.get('state')).toBe(STATE)
    expect((await idp.accounts.get('new@example.com'))?.name).toBe('New Person')
    // The form's request is good once.
    expect(await idp.submit({ request, email: 'new@example.com' })).toMatchObject({
      kind: 'page',
      status: 400,
    })
  })

  test('with a control token, prompt=none signs in only a request that carries it; the form asks for it', async () => {
    idp = createOpenIdProvider({ clock, controlToken: 'k3y', seedAccounts: SEEDS })
    expect((await authorize({})).location?.searchParams.get('error')).toBe('login_required')
    expect((await authorize({}, 'k3y')).location?.searchParams.get('code')).toBeTruthy()
    const { answer } = await authorize({ prompt: undefined })
    const request = /name="request" value="([^"]+)"/.exec(answer.kind === 'page' ? answer.html : '')![1]!
    expect(await idp.submit({ request, email: 'a@example.com', control_token: 'wrong' })).toEqual({
      kind: 'token-required',
    })
    expect(await idp.submit({ request, email: 'a@example.com' }, 'wrong')).toEqual({ kind: 'token-required' })
    // A scripted client may send it as the control surface takes it, in the header, instead of the field.
    expect(await idp.submit({ request, email: 'a@example.com' }, 'k3y')).toMatchObject({ kind: 'redirect' })
  })
})

describe('the token endpoint', async () => {
  test('a code buys an ES256 ID token with iss, aud = client id, sub, nonce and exp, verifiable with the JWKS', async () => {
    const answer = await tokenRequest(await codeFor())
    expect(answer).toMatchObject({ status: 200, headers: { 'cache-control': 'no-store' } })
    if (answer.status !== 200) return
    const { payload, protectedHeader } = await jwtVerify(
      answer.body.id_token,
      createLocalJWKSet(await idp.jwks()),
      {
        issuer: ISSUER,
        audience: PRODUCT_CLIENT_ID,
        currentDate: new Date(clock.now()),
      },
    )
    expect(protectedHeader).toMatchObject({ alg: 'ES256', kid: (await idp.jwks()).keys[0]!.kid })
    expect(payload).toMatchObject({
      nonce: 'n-0123456789',
      sub: (await idp.accounts.get('ada@example.com'))!.sub,
      email: 'ada@example.com',
      email_verified: true,
      name: 'Ada Lovelace',
    })
    expect(payload.exp! - payload.iat!).toBe(600)
  })

  test('the JWKS holds public members only, each key with a kid', async () => {
    for (const key of (await idp.jwks()).keys) {
      expect(key.kid).toEqual(expect.any(String))
      expect(Object.keys(key).sort()).toEqual(['alg', 'crv', 'kid', 'kty', 'use', 'x', 'y'])
    }
  })

  test.each([
    ['a wrong code_verifier', { code_verifier: `${VERIFIER}x` }],
    ['no code_verifier', { code_verifier: undefined }],
    ['a different redirect_uri', { redirect_uri: 'http://127.0.0.1:4010/elsewhere' }],
  ])('%s is invalid_grant, and the code is spent', async (_label, overrides) => {
    const code = await codeFor()
    expect(await tokenRequest(code, overrides)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    })
    expect(await tokenRequest(code)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })

  test('a reused code is invalid_grant and revokes the access token it bought', async () => {
    const code = await codeFor()
    const first = await tokenRequest(code)
    if (first.status !== 200) throw new Error('Failed to exchange the code.')
    expect((await idp.userinfo(`Bearer ${first.body.access_token}`)).status).toBe(200)
    expect(await tokenRequest(code)).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant', error_description: 'The code was already used.' },
    })
    expect(await idp.userinfo(`Bearer ${first.body.access_token}`)).toMatchObject({
      status: 401,
      headers: { 'www-authenticate': 'Bearer realm="idp", error="invalid_token"' },
    })
  })

  test('a code past its lifetime, or of another client, is invalid_grant', async () => {
    const other = await idp.clients.register({ redirect_uris: ['https://rp.example/cb'], public: true })
    const foreign = await codeFor({ client_id: other.client_id, redirect_uri: 'https://rp.example/cb' })
    expect(await tokenRequest(foreign, { redirect_uri: 'https://rp.example/cb' })).toMatchObject({
      body: { error: 'invalid_grant' },
    })
    const late = await codeFor()
    clock.advance(2 * 60_000)
    expect(await tokenRequest(late)).toMatchObject({ status: 400, body: { error: 'invalid_grant' } })
  })

  test.each([
    ['grant_type=refresh_token', { grant_type: 'refresh_token' }, 400, 'unsupported_grant_type'],
    ['grant_type=password', { grant_type: 'password' }, 400, 'unsupported_grant_type'],
    ['no grant_type', { grant_type: undefined }, 400, 'invalid_request'],
    ['no code', { code: '' }, 400, 'invalid_request'],
    ['no redirect_uri', { redirect_uri: undefined }, 400, 'invalid_request'],
    ['a wrong client secret', { client_secret: 'wrong' }, 401, 'invalid_client'],
    ['an unknown client', { client_id: 'nobody' }, 401, 'invalid_client'],
    ['a confidential client without its secret', { client_secret: undefined }, 401, 'invalid_client'],
  ])('%s: %i %s', async (_label, overrides, status, error) => {
    expect(await tokenRequest(await codeFor(), overrides)).toMatchObject({ status, body: { error } })
  })

  test('HTTP Basic authenticates the client; a failed Basic is told so in WWW-Authenticate; a public client sends none', async () => {
    const basic = (id: string, key: string) => `Basic ${Buffer.from(`${id}:${key}`).toString('base64')}`
    const body = (code: string) => ({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
    })
    expect((await idp.token(body(await codeFor()), basic(PRODUCT_CLIENT_ID, secret()), ISSUER)).status).toBe(
      200,
    )
    expect(await idp.token(body(await codeFor()), basic(PRODUCT_CLIENT_ID, 'wrong'), ISSUER)).toMatchObject({
      status: 401,
      headers: { 'www-authenticate': expect.stringMatching(/^Basic /) },
    })
    const open = await idp.clients.register({ redirect_uris: ['https://rp.example/cb'], public: true })
    const code = await codeFor({ client_id: open.client_id, redirect_uri: 'https://rp.example/cb' })
    const answer = await idp.token(
      { ...body(code), redirect_uri: 'https://rp.example/cb', client_id: open.client_id },
      undefined,
      ISSUER,
    )
    expect(answer.status).toBe(200)
  })
})

describe('the issuer follows the address the server is reached at', async () => {
  async function discover(core: ReturnType<typeof createMockCore>, host: string, proto?: string) {
    await core.ready
    const answer = await core.dispatch({
      method: 'GET',
      url: '/idp/.well-known/openid-configuration',
      headers: { host, ...(proto && { 'x-forwarded-proto': proto }) },
      readBody: bodyFrom(undefined),
      ip: '127.0.0.1',
      secure: false,
      origin: `http://${host}`,
    })
    return JSON.parse(bodyText(answer!.body)) as Record<string, string>
  }

  test.each([
    ['127.0.0.1:4010', 'http://127.0.0.1:4010/idp'],
    ['localhost:5173', 'http://localhost:5173/idp'],
  ])('Host %s: issuer %s, every endpoint under it', async (host, issuer) => {
    const core = createMockCore({ hasher: { memoryCost: 1024, timeCost: 1 } })
    const document = await discover(core, host)
    expect(document.issuer).toBe(issuer)
    for (const name of ['authorization_endpoint', 'token_endpoint', 'userinfo_endpoint', 'jwks_uri'])
      expect(document[name]!.startsWith(`${issuer}/`)).toBe(true)
  })

  test('a configured public origin wins over the Host', async () => {
    const core = createMockCore({
      hasher: { memoryCost: 1024, timeCost: 1 },
      publicOrigin: 'https://qa.example.org',
    })
    expect((await discover(core, 'qa.example.org')).issuer).toBe('https://qa.example.org/idp')
  })

  test('the ID token names the same issuer as discovery', async () => {
    const answer = await tokenRequest(await codeFor())
    expect(answer.status === 200 && decodeJwt(answer.body.id_token).iss).toBe(ISSUER)
  })
})
