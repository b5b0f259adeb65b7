import { expect, test } from 'vitest'
import { normalizeUser } from './user.ts'

const rows = [
  {
    raw: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
    user: { id: 'u1', email: 'ada@example.com', name: 'Ada' },
  },
  {
    raw: { userId: 'u2', emailId: 'bob@example.com', name: 'Bob' },
    user: { id: 'u2', email: 'bob@example.com', name: 'Bob' },
  },
  { raw: { id: 'u3', emailId: 'c@example.com' }, user: { id: 'u3', email: 'c@example.com', name: '' } },
  { raw: { email: 'd@example.com' }, user: { id: '', email: 'd@example.com', name: '' } },
  { raw: { name: 'Nobody' }, user: null },
  { raw: {}, user: null },
  { raw: null, user: null },
  { raw: undefined, user: null },
  { raw: 'ada', user: null },
] as const

test.each(rows)('normalizeUser($raw) -> $user', ({ raw, user }) => {
  expect(normalizeUser(raw)).toEqual(user)
})
