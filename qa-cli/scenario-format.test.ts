import { stripVTControlCharacters as stripAnsi } from 'node:util'
import { expect, test } from 'vitest'
import type { ArmedScenario } from '#api/mock-client.ts'
import {
  formatAge,
  formatArmed,
  formatCleared,
  formatClock,
  formatDuration,
  formatScenarios,
  formatTable,
} from './scenario-format.ts'
import { ANSI, PLAIN } from './terminal-style.ts'

test.each([
  [0, '0ms'],
  [250, '250ms'],
  [1000, '1s'],
  [45_500, '45s'],
  [900_000, '15m'],
  [3_723_000, '1h 2m'],
  [3_600_500, '1h'],
  [90_000_000, '1d 1h'],
  [-300_000, '5m'],
] as const)('formatDuration(%d) is %s', (ms, text) => {
  expect(formatDuration(ms)).toBe(text)
})

test.each([
  ['2030-01-01T00:00:00.000Z', '2030-01-01T00:00:00.400Z', 'just now'],
  ['2030-01-01T00:00:00.000Z', '2030-01-01T00:02:05.000Z', '2m 5s ago'],
  ['2030-01-01T00:10:00.000Z', '2030-01-01T00:00:00.000Z', 'in 10m'],
] as const)('a mail sent at %s is, at %s, %s', (at, now, text) => {
  expect(formatAge(at, now)).toBe(text)
})

test('the clock says where it is against real time', () => {
  expect(formatClock({ now: '2030-01-01T00:00:00.000Z', offset_ms: 0 }, PLAIN)).toBe(
    'Server clock: 2030-01-01T00:00:00.000Z (on real time).',
  )
  expect(formatClock({ now: '2030-01-01T00:15:00.000Z', offset_ms: 900_000 }, PLAIN, true)).toBe(
    'Moved the server clock: it is now 2030-01-01T00:15:00.000Z (15m ahead of real time).',
  )
  expect(formatClock({ now: '2029-12-31T23:00:00.000Z', offset_ms: -3_600_000 }, PLAIN)).toContain(
    '(1h behind real time)',
  )
})

const armed = (fields: Partial<ArmedScenario>): ArmedScenario => ({
  id: 'a1',
  name: 'access-token-expired',
  remaining: 1,
  armed_at: '2030-01-01T00:00:00.000Z',
  ...fields,
})

test.each([
  [
    armed({ email: 'ada@example.com', operation: 'getMe', remaining: 2 }),
    'Armed access-token-expired for ada@example.com on getMe calls: it serves the next 2 matching calls.',
  ],
  [
    armed({ remaining: 1 }),
    'Armed access-token-expired for every account on every call it applies to: it serves the next matching call.',
  ],
  [
    armed({ name: 'server-error', status: 502, operation: 'getHelp', remaining: null }),
    'Armed server-error (status 502) for every account on getHelp calls: it serves until cleared.',
  ],
  [
    armed({ name: 'latency', delay_ms: 2000, message: 'slow', email: 'grace@example.com' }),
    'Armed latency (2s late, message "slow") for grace@example.com on every call it applies to: it serves the next matching call.',
  ],
] as const)('what was armed, for whom, for how many calls: %#', (scenario, sentence) => {
  expect(formatArmed(scenario, PLAIN)).toBe(sentence)
  expect(stripAnsi(formatArmed(scenario, ANSI))).toBe(sentence)
})

test.each([
  [0, undefined, 'Nothing was armed.'],
  [0, 'ada@example.com', 'Nothing was armed for ada@example.com.'],
  [1, 'ada@example.com', 'Disarmed 1 scenario for ada@example.com.'],
  [3, undefined, 'Disarmed 3 scenarios.'],
] as const)('clearing %d scenarios for %s says: %s', (cleared, email, sentence) => {
  expect(formatCleared(cleared, email)).toBe(sentence)
})

test('a table pads each column to its widest cell, whatever the colour codes around a cell', () => {
  const plain = formatTable(
    ['A', 'LONGER'],
    [
      ['wide cell', 'x'],
      ['b', 'y'],
    ],
    PLAIN,
  )
  expect(plain).toEqual(['A          LONGER', 'wide cell  x', 'b          y'])
  const coloured = formatTable(
    ['A', 'LONGER'],
    [
      [{ text: 'wide cell', paint: ANSI.red }, 'x'],
      ['b', 'y'],
    ],
    ANSI,
  )
  expect(coloured.map(stripAnsi)).toEqual(plain)
  expect(coloured[1]).toContain('\u001b[31mwide cell\u001b[39m')
})

test('the scenario list shows what is armed (or that nothing is) and what can be armed', () => {
  const available = [
    { name: 'latency' as const, description: 'Any call is answered later.', operations: ['getMe'] },
  ]
  const none = formatScenarios({ available, armed: [] }, PLAIN)
  expect(none[0]).toBe('Nothing is armed.')
  expect(none).toContain('  latency   Any call is answered later.')
  const some = formatScenarios(
    { available, armed: [armed({ email: 'ada@example.com', operation: 'getMe', remaining: 2 })] },
    PLAIN,
  )
  expect(some.slice(0, 3)).toEqual([
    'Armed now (1), earliest first:',
    '  SCENARIO              FOR              ON     SERVES  EXTRAS',
    '  access-token-expired  ada@example.com  getMe  2 more',
  ])
})

test("a scenario's message from the server is shown, never obeyed: escapes in the sentence and in the table", () => {
  const armed: ArmedScenario = {
    name: 'unauthorized-other',
    email: 'ada@example.com',
    message: '\u001b[31mRED\u001b[0m\r\nFAKE LINE',
    remaining: 1,
  } as ArmedScenario
  const sentence = formatArmed(armed, ANSI)
  expect(sentence).not.toMatch(/[\r\n]/)
  expect(sentence).not.toContain('\u001b[31m')
  expect(stripAnsi(sentence)).toContain('message "\\x1b[31mRED\\x1b[0m\\r\\nFAKE LINE"')
  const lines = formatScenarios({ available: [], armed: [armed] }, ANSI)
  expect(lines.join('\n')).not.toContain('\u001b[31m')
  expect(lines.join('\n')).not.toMatch(/FAKE LINE\n|\r/)
  expect(lines.some((line) => stripAnsi(line).includes('\\r\\nFAKE LINE'))).toBe(true)
})
