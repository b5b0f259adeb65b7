// External sign-in's domain (external-sign-in.ts): what a vouched-for identity becomes; and the sign-ins the product
// waits on (relying-party/pending-sign-ins.ts): bound to a state and a browser, good once, for a while.
import { beforeEach, describe, expect, test } from 'vitest'
import { EXTERNAL_SIGN_IN_TTL_MS } from '../../shared/constants.ts'
import { createMockCore, type MockCore } from '../../core.ts'
import { createPendingSignIns } from '../../external-sign-in/pending-sign-ins.ts'
import { signInExternally } from './external-sign-in.ts'
import { createUser, getUserByEmail } from './users.ts'

const STATE = 'state-0123456789abcdef'
const PENDING = {
  issuer: 'https://id.example',
  redirectUri: 'https://app.example/callback',
  nonce: 'n',
  codeVerifier: 'v',
}

let core: MockCore
beforeEach(async () => {
  core = createMockCore({ hasher: { memoryCost: 1024, timeCost: 1 }, seed: false })
  await core.ready
})

describe('signInExternally', () => {
  test('a new address gets a verified account with the provider’s name', async () => {
    const { domain } = core.ops
    const user = await signInExternally(domain, { email: 'new@example.com', name: 'New Person' })
    expect(user).toMatchObject({ email: 'new@example.com', name: 'New Person', verified: true })
    expect(getUserByEmail(domain, 'new@example.com')?.id).toBe(user.id)
  })

  test('an unverified account is proven and loses its unproven password', async () => {
    const { domain } = core.ops
    const pending = await createUser(domain, {
      email: 'pending@example.com',
      name: 'Pending',
      password: 'an unproven passphrase',
      verified: false,
    })
    const user = await signInExternally(domain, { email: 'pending@example.com', name: 'Proven' })
    expect(user).toMatchObject({ id: pending.id, name: 'Proven', verified: true })
    expect(await domain.hasher.verify(user.passwordHash, 'an unproven passphrase')).toBe(false)
  })
})

describe('the sign-ins the product waits on', () => {
  test('found by state, only with the browser’s binding, once', () => {
    const signIns = createPendingSignIns(core.clock)
    signIns.add(STATE, 'browser-a', PENDING)
    expect(signIns.take(STATE, 'browser-b')).toBeNull()
    expect(signIns.take(STATE, undefined)).toBeNull()
    expect(signIns.take(`${STATE}x`, 'browser-a')).toBeNull()
    expect(signIns.take(STATE, 'browser-a')).toEqual(PENDING)
    expect(signIns.take(STATE, 'browser-a')).toBeNull()
  })

  test('gone once EXTERNAL_SIGN_IN_TTL_MS has passed', () => {
    const signIns = createPendingSignIns(core.clock)
    signIns.add(STATE, 'browser-a', PENDING)
    core.clock.advance(EXTERNAL_SIGN_IN_TTL_MS)
    expect(signIns.take(STATE, 'browser-a')).toBeNull()
  })
})
