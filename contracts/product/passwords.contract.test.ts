// Password storage at production cost: argon2id with OWASP's parameters, never the password itself.
import { beforeEach, describe, expect, test } from 'vitest'
import { createApp } from '#mock-server/app.ts'
import { COMMON_PASSWORD_COUNT } from '#mock-server/product/domain/passwords.ts'
import { createContractAgent } from '#contracts/support/api.ts'
import { requireOwnServer, signUp } from '#contracts/fixtures.ts'

describe('password storage', () => {
  beforeEach(() => requireOwnServer('reads what the in-process app stores'))

  test('by default a password is stored as argon2id, m=19 MiB, t=2, p=1, and only so', async () => {
    const app = createApp()
    await app.core.ready
    const api = createContractAgent(app)
    const password = 'the production cost passphrase'
    const { email } = await signUp(api, 'user', password)
    const user = (await app.core.ops.domain.store.users.byEmail(email))!
    expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(JSON.stringify((await app.core.ops.domain.store.snapshot()).users)).not.toContain(password)
    await api.post('/api/auth/login').send({ email, password }).expect(200)
  })

  test('the common-password list holds at least 3,000 passwords', () => {
    expect(COMMON_PASSWORD_COUNT).toBeGreaterThanOrEqual(3000)
  })
})
