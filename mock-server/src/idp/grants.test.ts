// The identity provider's grants in memory (idp/grants.ts): a code is taken once, a replay is told apart from an
// unknown code and revokes what that code bought (and nothing else), the sign-in time is kept in seconds, and a
// reset forgets everything.
import { beforeEach, describe, expect, test } from 'vitest'
import { IDP_CODE_TTL_MS, IDP_TOKEN_TTL_MS } from '../shared/constants.ts'
import { createControlClock, type ControlClock } from '../shared/control-clock.ts'
import { hashToken } from '../shared/crypto.ts'
import { createIdpAccounts, type IdpAccount } from './accounts.ts'
import type { AuthorizationRequest } from './authorization-request.ts'
import { createIdpClients } from './clients.ts'
import { createGrants, type Grants } from './grants.ts'

/** 2023-11-14T22:13:20.750Z: not a whole second, so a sign-in time kept in milliseconds would show. */
const NOW = 1_700_000_000_750

let clock: ControlClock
let grants: Grants
let account: IdpAccount
let request: AuthorizationRequest
beforeEach(async () => {
  clock = createControlClock(() => NOW)
  grants = createGrants(clock)
  account = await createIdpAccounts(10).put('ada@example.com', 'Ada Lovelace')
  request = {
    client: createIdpClients(10).product,
    redirectUri: 'http://127.0.0.1:4010/callback',
    scope: ['openid', 'email'],
    nonce: 'n-0123456789',
    codeChallenge: 'c'.repeat(43),
    prompt: ['none'],
  }
})

/** A code issued and taken, and the access token it bought. */
async function exchanged(): Promise<{ code: string; token: string }> {
  const code = await grants.issueCode(request, account)
  const taken = await grants.takeCode(code)
  if (!('grant' in taken)) throw new Error('Failed to take the code.')
  const token = await grants.issueAccessToken({
    sub: taken.grant.sub,
    clientId: taken.grant.clientId,
    scope: taken.grant.scope,
    codeHash: hashToken(code),
  })
  if (token === null) throw new Error('Failed to issue the access token.')
  return { code, token }
}

describe('codes', () => {
  test('a code is taken once, with the sign-in time in whole seconds (the ID token auth_time)', async () => {
    const code = await grants.issueCode(request, account)
    expect(await grants.takeCode(code)).toEqual({
      grant: {
        clientId: 'auth-shell',
        redirectUri: 'http://127.0.0.1:4010/callback',
        codeChallenge: 'c'.repeat(43),
        nonce: 'n-0123456789',
        sub: account.sub,
        scope: ['openid', 'email'],
        authTime: 1_700_000_000,
      },
    })
    expect(await grants.takeCode(code)).toEqual({ replayed: true })
  })

  test('a code never issued is unknown, not a replay', async () => {
    expect(await grants.takeCode('never-issued')).toEqual({ replayed: false })
  })
})

describe('access tokens', () => {
  test('a replayed code revokes the token it bought, and no other', async () => {
    const first = await exchanged()
    const second = await exchanged()
    expect(await grants.takeCode(first.code)).toEqual({ replayed: true })
    expect(await grants.getAccessGrant(first.token)).toBeUndefined()
    expect(await grants.getAccessGrant(second.token)).toMatchObject({ sub: account.sub })
  })

  test('a code replayed after the code’s lifetime but within the token’s still revokes the token', async () => {
    const { code, token } = await exchanged()
    clock.advance(IDP_CODE_TTL_MS + 1_000)
    expect(await grants.getAccessGrant(token), 'the token still lives').toMatchObject({ sub: account.sub })
    expect(await grants.takeCode(code)).toEqual({ replayed: true })
    expect(await grants.getAccessGrant(token)).toBeUndefined()
  })

  test('a code replayed between its taking and its token gets no token', async () => {
    const code = await grants.issueCode(request, account)
    expect(await grants.takeCode(code)).toHaveProperty('grant')
    expect(await grants.takeCode(code)).toEqual({ replayed: true })
    const grant = { sub: account.sub, clientId: 'auth-shell', scope: ['openid'], codeHash: hashToken(code) }
    expect(await grants.issueAccessToken(grant)).toBeNull()
  })

  test('only a replay withholds a token: a code taken before the clock moved past its record still gets one', async () => {
    const code = await grants.issueCode(request, account)
    expect(await grants.takeCode(code)).toHaveProperty('grant')
    clock.advance(IDP_TOKEN_TTL_MS)
    const grant = { sub: account.sub, clientId: 'auth-shell', scope: ['openid'], codeHash: hashToken(code) }
    const token = await grants.issueAccessToken(grant)
    expect(token).toEqual(expect.any(String))
    expect(await grants.getAccessGrant(token!)).toEqual(grant)
  })
})

describe('clear', () => {
  test('forgets the codes, the presented codes, the access tokens and the requests waiting at the form', async () => {
    const issued = await grants.issueCode(request, account)
    const { code: presented, token } = await exchanged()
    const waiting = await grants.holdRequest(request)
    await grants.clear()
    expect(await grants.takeCode(issued)).toEqual({ replayed: false })
    expect(await grants.takeCode(presented)).toEqual({ replayed: false })
    expect(await grants.getAccessGrant(token)).toBeUndefined()
    expect(await grants.takeRequest(waiting)).toBeNull()
  })
})
