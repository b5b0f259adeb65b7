// What an external provider's claims may make an account of (docs/decisions/022-openid-provider.md): a verified
// address that the API itself would take, so no mail to the account can reach another mailbox.
import { expect, test } from 'vitest'
import { toIdentity } from './relying-party.ts'

test('a verified address becomes the identity, trimmed and lower-cased, named by its claims or its local part', () => {
  expect(toIdentity({ email: ' Ada@Example.com ', email_verified: true, name: ' Ada ' })).toEqual({
    email: 'ada@example.com',
    name: 'Ada',
  })
  expect(toIdentity({ email: 'grace@example.com', email_verified: true })).toEqual({
    email: 'grace@example.com',
    name: 'grace',
  })
})

test.each([
  ['an unverified address', { email: 'ada@example.com', email_verified: false }],
  ['no address', { email_verified: true }],
  ['a list, which a mail library sends to each', { email: 'root,victim@example.com', email_verified: true }],
  ['a display part around another address', { email: 'x<attacker@evil.example>', email_verified: true }],
  ['a second @', { email: 'a@b@example.com', email_verified: true }],
  ['no domain with a dot', { email: 'ada@localhost', email_verified: true }],
  ['past 254 characters', { email: `${'a'.repeat(250)}@example.com`, email_verified: true }],
])('%s is no identity', (_, claims) => {
  expect(toIdentity(claims)).toBeNull()
})
