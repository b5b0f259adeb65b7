// External sign-in's domain: the mock provider's one-time codes (external-codes.ts) and what a vouched-for identity
// becomes (external-sign-in.ts).
import { beforeEach, describe, expect, test } from 'vitest'
import { EXTERNAL_CODE_TTL_MS } from '../constants.ts'
import { createMockCore, type MockCore } from '../core.ts'
import { addCodeToRedirect, issueExternalCode, redeemExternalCode } from './external-codes.ts'
import { createMockIdentityProvider, signInExternally } from './external-sign-in.ts'
import { createUser, getUserByEmail } from './users.ts'

const STATE = 'state-0123456789abcdef'

let core: MockCore
beforeEach(async () => {
  core = createMockCore({ hasher: { memoryCost: 1024, timeCost: 1 }, seed: false })
  await core.ready
})

describe('the mock provider’s codes', () => {
  test('a code vouches for the normalized address once, with the local part for a name when none was given', async () => {
    const { domain } = core.ops
    const code = await issueExternalCode(domain, { email: ' SSO@Example.com ', state: STATE })
    expect(domain.store.externalCodes.all().map((record) => record.hash)).not.toContain(code)
    expect(await redeemExternalCode(domain, { code, state: STATE })).toEqual({
      email: 'sso@example.com',
      name: 'sso',
    })
    expect(await redeemExternalCode(domain, { code, state: STATE })).toBeNull()
  })

  test('two redemptions at once: one wins', async () => {
    const { domain } = core.ops
    const code = await issueExternalCode(domain, { email: 'race@example.com', name: 'Race', state: STATE })
    const results = await Promise.all([
      redeemExternalCode(domain, { code, state: STATE }),
      redeemExternalCode(domain, { code, state: STATE }),
    ])
    expect(results.filter((result) => result !== null)).toEqual([{ email: 'race@example.com', name: 'Race' }])
  })

  test('a code bound to another state, unknown, or past its lifetime vouches for no one', async () => {
    const { domain } = core.ops
    const code = await issueExternalCode(domain, { email: 'a@example.com', state: STATE })
    expect(await redeemExternalCode(domain, { code, state: `${STATE}x` })).toBeNull()
    expect(await redeemExternalCode(domain, { code: 'unknown', state: STATE })).toBeNull()
    core.clock.advance(EXTERNAL_CODE_TTL_MS)
    expect(await redeemExternalCode(domain, { code, state: STATE })).toBeNull()
  })

  test('the redirect keeps the app’s query and adds the code and state to it', () => {
    expect(addCodeToRedirect('/callback?from=sso', { code: 'c0de', state: STATE })).toBe(
      `/callback?from=sso&code=c0de&state=${STATE}`,
    )
    expect(addCodeToRedirect('/callback', { code: 'a&b', state: STATE })).toBe(
      `/callback?code=a%26b&state=${STATE}`,
    )
  })
})

describe('signInExternally', () => {
  test('a new address gets a verified account with the provider’s name', async () => {
    const { domain } = core.ops
    const idp = createMockIdentityProvider(domain)
    const code = await idp.issueCode({ email: 'new@example.com', name: 'New Person', state: STATE })
    const user = await signInExternally(domain, idp, { code, state: STATE })
    expect(user).toMatchObject({ email: 'new@example.com', name: 'New Person', verified: true })
    expect(getUserByEmail(domain, 'new@example.com')?.id).toBe(user?.id)
  })

  test('an unverified account is proven and loses its unproven password; a used code signs no one in', async () => {
    const { domain } = core.ops
    const pending = await createUser(domain, {
      email: 'pending@example.com',
      name: 'Pending',
      password: 'an unproven passphrase',
      verified: false,
    })
    const idp = createMockIdentityProvider(domain)
    const code = await idp.issueCode({ email: 'pending@example.com', name: 'Proven', state: STATE })
    const user = await signInExternally(domain, idp, { code, state: STATE })
    expect(user).toMatchObject({ id: pending.id, name: 'Proven', verified: true })
    expect(await domain.hasher.verify(user!.passwordHash, 'an unproven passphrase')).toBe(false)
    expect(await signInExternally(domain, idp, { code, state: STATE })).toBeNull()
  })
})
