// External sign-in's domain (external-sign-in.ts): what a vouched-for identity becomes.
import { beforeEach, describe, expect, test } from 'vitest'
import { createMockCore, type MockCore } from '../../core.ts'
import { signInExternally } from './external-sign-in.ts'
import { createUser, getUserByEmail } from './users.ts'

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
    expect((await getUserByEmail(domain, 'new@example.com'))?.id).toBe(user.id)
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
