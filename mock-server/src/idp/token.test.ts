// The token endpoint's checks (idp/token.ts), each refusal with its RFC 6749 error, status and description, and what
// a good code buys: a Bearer token for the code's scope and an ID token issued on the server's clock, in seconds.
import { createHash } from 'node:crypto'
import { decodeJwt } from 'jose'
import { beforeEach, describe, expect, test } from 'vitest'
import { createControlClock } from '../shared/control-clock.ts'
import { createIdpAccounts, type IdpAccount } from './accounts.ts'
import type { AuthorizationRequest } from './authorization-request.ts'
import { createIdpClients, PRODUCT_CLIENT_ID } from './clients.ts'
import { createGrants } from './grants.ts'
import { createSigningKey } from './keys.ts'
import { exchangeCode, NO_STORE, type TokenContext } from './token.ts'

const ISSUER = 'http://127.0.0.1:4010/idp'
const REDIRECT = 'http://127.0.0.1:4010/callback'
const VERIFIER = 'a-code-verifier-of-at-least-forty-three-characters-0123456789'
const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url')
/** 2023-11-14T22:13:20.750Z: not a whole second, so a time kept in milliseconds would show. */
const NOW = 1_700_000_000_750

let ctx: TokenContext
let ada: IdpAccount
beforeEach(async () => {
  const clock = createControlClock(() => NOW)
  ctx = {
    clock,
    clients: createIdpClients(10),
    accounts: createIdpAccounts(10, [{ email: 'ada@example.com', name: 'Ada Lovelace' }]),
    grants: createGrants(clock),
    key: createSigningKey(),
  }
  ada = (await ctx.accounts.get('ada@example.com'))!
})

/** A code issued to the product's client for Ada, as the authorization endpoint issues one. */
const issue = (overrides: Partial<AuthorizationRequest> = {}, account: IdpAccount = ada) =>
  ctx.grants.issueCode(
    {
      client: ctx.clients.product,
      redirectUri: REDIRECT,
      scope: ['openid', 'email', 'profile'],
      nonce: 'n-0123456789',
      codeChallenge: s256(VERIFIER),
      prompt: ['none'],
      ...overrides,
    },
    account,
  )

const exchange = (code: string, overrides: Record<string, string | undefined> = {}, authorization?: string) =>
  exchangeCode(
    ctx,
    {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: VERIFIER,
      client_id: PRODUCT_CLIENT_ID,
      client_secret: ctx.clients.product.client_secret,
      ...overrides,
    },
    authorization,
    ISSUER,
  )

const refusal = (status: 400 | 401, error: string, description: string) => ({
  status,
  body: { error, error_description: description },
  headers: NO_STORE,
})

describe('a good code', () => {
  test('buys a Bearer token for its scope, space-separated, and an ID token whose times are seconds of now', async () => {
    const answer = await exchange(await issue())
    expect(answer).toEqual({
      status: 200,
      body: {
        access_token: expect.any(String),
        token_type: 'Bearer',
        expires_in: 600,
        id_token: expect.any(String),
        scope: 'openid email profile',
      },
      headers: NO_STORE,
    })
    if (answer.status !== 200) return
    expect(decodeJwt(answer.body.id_token)).toMatchObject({
      iss: ISSUER,
      aud: PRODUCT_CLIENT_ID,
      sub: ada.sub,
      nonce: 'n-0123456789',
      auth_time: 1_700_000_000,
      iat: 1_700_000_000,
      exp: 1_700_000_600,
    })
  })
})

type Case = [
  label: string,
  issued: Partial<AuthorizationRequest>,
  body: Record<string, string | undefined>,
  answer: ReturnType<typeof refusal>,
]

describe('the refusals', () => {
  test.each<Case>([
    [
      'no grant_type',
      {},
      { grant_type: undefined },
      refusal(400, 'invalid_request', 'grant_type is required.'),
    ],
    [
      'grant_type=password',
      {},
      { grant_type: 'password' },
      refusal(400, 'unsupported_grant_type', 'Only grant_type=authorization_code is offered.'),
    ],
    ['no code', {}, { code: '' }, refusal(400, 'invalid_request', 'code is required.')],
    [
      'no redirect_uri',
      {},
      { redirect_uri: undefined },
      refusal(400, 'invalid_request', 'redirect_uri is required.'),
    ],
    [
      'a code never issued',
      {},
      { code: 'never-issued' },
      refusal(400, 'invalid_grant', 'The code is unknown or has expired.'),
    ],
    [
      'a code of another client',
      { client: { client_id: 'client-other', redirect_uris: [REDIRECT] } },
      {},
      refusal(400, 'invalid_grant', 'The code was issued to another client.'),
    ],
    [
      'another redirect_uri than the code was issued for',
      {},
      { redirect_uri: 'http://127.0.0.1:4010/elsewhere' },
      refusal(400, 'invalid_grant', 'redirect_uri differs from the one the code was issued for.'),
    ],
    [
      // RFC 7636 section 4.1: fewer than 43 characters is no verifier, even one whose digest is the challenge.
      'a verifier too short, though its digest is the challenge',
      { codeChallenge: s256('v'.repeat(42)) },
      { code_verifier: 'v'.repeat(42) },
      refusal(400, 'invalid_grant', 'code_verifier is missing or malformed.'),
    ],
    [
      // RFC 7636 section 4.1: more than 128 characters is no verifier either.
      'a verifier of 129 characters, though its digest is the challenge',
      { codeChallenge: s256('v'.repeat(129)) },
      { code_verifier: 'v'.repeat(129) },
      refusal(400, 'invalid_grant', 'code_verifier is missing or malformed.'),
    ],
    [
      'a verifier whose digest is not the challenge',
      {},
      { code_verifier: 'w'.repeat(43) },
      refusal(400, 'invalid_grant', 'code_verifier does not match the code_challenge.'),
    ],
  ])('%s', async (_label, issued, overrides, expected) => {
    const code = await issue(issued)
    expect(await exchange(overrides.code ?? code, overrides)).toEqual(expected)
  })

  test('a client that authenticates twice, with Basic and a secret in the body, is a 400 invalid_request', async () => {
    const { client_id: id, client_secret: secret } = ctx.clients.product
    const basic = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`
    expect(await exchange(await issue(), {}, basic)).toEqual({
      status: 400,
      body: { error: 'invalid_request', error_description: 'Use one way to authenticate the client.' },
      headers: { ...NO_STORE, 'www-authenticate': 'Basic realm="idp", charset="UTF-8"' },
    })
  })

  test('a code whose account is gone is invalid_grant', async () => {
    const code = await issue({}, await ctx.accounts.put('new@example.com', 'New Person'))
    // A reset brings back the seed accounts only.
    await ctx.accounts.reset()
    expect(await exchange(code)).toEqual(
      refusal(400, 'invalid_grant', 'The account the code was issued for is gone.'),
    )
  })

  test('a code replayed while its answer is made buys nothing: both presentations are refused', async () => {
    const code = await issue()
    const key = ctx.key
    let replay: ReturnType<typeof exchange> | undefined
    // The replay comes in while the first answer's ID token is signed, after its code was taken.
    ctx = {
      ...ctx,
      key: {
        jwks: () => key.jwks(),
        async sign(claims) {
          replay ??= exchange(code)
          await replay
          return key.sign(claims)
        },
      },
    }
    const used = refusal(400, 'invalid_grant', 'The code was already used.')
    expect(await exchange(code)).toEqual(used)
    expect(await replay).toEqual(used)
  })
})
