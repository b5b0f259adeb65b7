import { expect, test } from 'vitest'
import { ANSI, createStyle, isColorEnabled, PLAIN, visible } from './terminal-style.ts'

test.each([
  [{}, true, true],
  [{}, false, false],
  [{ NO_COLOR: '1' }, true, false],
  [{ NO_COLOR: '' }, true, true], // no-color.org: an empty value does not count
  [{ NODE_DISABLE_COLORS: '1' }, true, false],
  [{ TERM: 'dumb' }, true, false],
  [{ FORCE_COLOR: '1' }, false, true],
  [{ FORCE_COLOR: '' }, false, true],
  [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true], // as Node decides: FORCE_COLOR wins
  [{ FORCE_COLOR: '0' }, true, false],
  [{ FORCE_COLOR: 'false' }, true, false],
] as const)('env %j on a terminal: %s gives colours: %s', (env, isTTY, colours) => {
  expect(isColorEnabled({ env, isTTY })).toBe(colours)
  expect(createStyle({ env, isTTY })).toBe(colours ? ANSI : PLAIN)
})

test('ANSI wraps text in a code and its own reset, leaves empty text alone; PLAIN changes nothing', () => {
  expect(ANSI.red('503')).toBe('\u001b[31m503\u001b[39m')
  expect(ANSI.bold(ANSI.green('ok'))).toBe('\u001b[1m\u001b[32mok\u001b[39m\u001b[22m')
  expect(ANSI.dim('')).toBe('')
  for (const paint of Object.values(PLAIN)) expect(paint('text')).toBe('text')
})

test("the server's text cannot drive the terminal: control characters, separators and bidi controls show as escapes", () => {
  expect(visible('a\u001b[31mRED\u001b[0m\r\nFAKE LINE\tx')).toBe('a\\x1b[31mRED\\x1b[0m\\r\\nFAKE LINE\\tx')
  expect(visible('\u0007\u007f\u009b\u2028\u202e\u2066')).toBe('\\x07\\x7f\\x9b\\u2028\\u202e\\u2066')
  expect(visible('ada@example.com — café ✓')).toBe('ada@example.com — café ✓')
})
