import { expect, test } from 'vitest'
import type { JournalEntry, Mail } from '#api/mock-client.ts'
import { formatJournal, formatJournalEntry, formatMailbox } from './journal-format.ts'
import { ANSI, PLAIN } from './terminal-style.ts'

const NOW = '2030-01-01T00:10:00.000Z'

test('the mailbox is a table of address, purpose, code and age; a mail without a code shows a dash', () => {
  const messages: Mail[] = [
    {
      to: 'ada@example.com',
      subject: 'Your code',
      purpose: 'login',
      code: '123456',
      sent_at: '2030-01-01T00:07:00.000Z',
    },
    {
      to: 'ada@example.com',
      subject: 'Password changed',
      purpose: 'password_changed',
      sent_at: '2030-01-01T00:09:59.500Z',
    },
  ]
  expect(formatMailbox(messages, 'ada@example.com', NOW, PLAIN)).toEqual([
    '2 mails to ada@example.com, oldest first:',
    '  ADDRESS          PURPOSE           CODE    AGE',
    '  ada@example.com  login             123456  3m ago',
    '  ada@example.com  password_changed  -       just now',
  ])
  expect(formatMailbox([], 'new@example.com', NOW, PLAIN)).toEqual(['No mail to new@example.com yet.'])
  expect(formatMailbox(messages, 'ada@example.com', NOW, ANSI)[2]).toContain('\u001b[1m123456\u001b[22m')
})

const entry = (fields: Partial<JournalEntry>): JournalEntry => ({
  seq: 12,
  method: 'POST',
  path: '/api/auth/forgot',
  status: 202,
  at: '2030-01-01T00:09:03.250Z',
  ...fields,
})

test.each([
  [
    entry({ operation: 'forgotPassword', email: 'ada@example.com' }),
    '   12  00:09:03  POST    202  /api/auth/forgot  forgotPassword · ada@example.com',
  ],
  [
    entry({
      seq: 3,
      method: 'GET',
      path: '/api/me',
      status: 401,
      operation: 'getMe',
      scenario: 'access-token-expired',
    }),
    '    3  00:09:03  GET     401  /api/me  getMe · scenario access-token-expired',
  ],
  [entry({ path: '/api/nowhere', status: 404 }), '   12  00:09:03  POST    404  /api/nowhere'],
] as const)('one call on one line: %#', (call, line) => {
  expect(formatJournalEntry(call, PLAIN)).toBe(line)
})

test.each([
  [200, '\u001b[32m200\u001b[39m'],
  [302, '\u001b[36m302\u001b[39m'],
  [429, '\u001b[33m429\u001b[39m'],
  [503, '\u001b[31m503\u001b[39m'],
] as const)('on a terminal the status %d is coloured by its class', (status, painted) => {
  expect(formatJournalEntry(entry({ status }), ANSI)).toContain(painted)
})

test('the journal says how many calls, whose and after what, or that there are none', () => {
  const calls = [entry({ seq: 1 }), entry({ seq: 2 })]
  expect(formatJournal(calls, {}, PLAIN)[0]).toBe('2 calls, oldest first (times by the server clock, UTC):')
  expect(formatJournal(calls, {}, PLAIN)).toHaveLength(3)
  expect(formatJournal([], { email: 'ada@example.com', since: '4' }, PLAIN)).toEqual([
    'No calls of ada@example.com after 4 in the journal.',
  ])
  expect(formatJournal([], {}, PLAIN)).toEqual(['No calls in the journal.'])
})
