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
  { raw: { id: 'u4' }, user: { id: 'u4', email: '', name: '' } },
  // An empty field is no field: the other naming is read instead.
  {
    raw: { id: '', userId: 'u5', email: '', emailId: 'e@example.com', name: '' },
    user: { id: 'u5', email: 'e@example.com', name: '' },
  },
  // A numeric id is read as text; other kinds of value are no value.
  { raw: { userId: 42, email: 'f@example.com' }, user: { id: '42', email: 'f@example.com', name: '' } },
  {
    raw: { id: 'u7', email: 'g@example.com', name: { first: 'G' } },
    user: { id: 'u7', email: 'g@example.com', name: '' },
  },
  { raw: { id: true, email: ['h@example.com'], name: 'H' }, user: null },
  { raw: { name: 'Nobody' }, user: null },
  { raw: {}, user: null },
  { raw: null, user: null },
  { raw: undefined, user: null },
  { raw: 'ada', user: null },
] as const

test.each(rows)('normalizeUser($raw) -> $user', ({ raw, user }) => {
  expect(normalizeUser(raw)).toEqual(user)
})
