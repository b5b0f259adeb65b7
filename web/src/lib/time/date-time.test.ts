import { expect, test } from 'vitest'
import { formatDateTime } from './date-time.ts'

test.each([
  { iso: '2030-05-01T09:30:00.000Z', locale: 'en-GB', zone: 'UTC', text: '1 May 2030, 09:30' },
  {
    iso: '2030-05-01T09:30:00.000Z',
    locale: 'en-US',
    zone: 'America/New_York',
    text: 'May 1, 2030, 5:30 AM',
  },
  { iso: 'not a date', locale: 'en-GB', zone: 'UTC', text: 'not a date' },
] as const)('$iso in $zone: $text', ({ iso, locale, zone, text }) => {
  expect(formatDateTime(iso, locale, zone).replace(/\u202f/g, ' ')).toBe(text)
})
