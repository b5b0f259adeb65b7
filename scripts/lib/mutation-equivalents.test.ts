import { describe, expect, test } from 'vitest'
import {
  describeSurvivor,
  judgeFile,
  normalizeCode,
  parseEquivalents,
  snippetAt,
  type Equivalent,
} from './mutation-equivalents.ts'
import { EQUIVALENT } from './mutation-scores.ts'

const SOURCE = ['const a = 1', 'if (ready &&', '    open) go()', ''].join('\n')
const at = (line: number, column: number, endLine: number, endColumn: number) => ({
  start: { line, column },
  end: { line: endLine, column: endColumn },
})

describe('snippetAt', () => {
  test('the code between start (inclusive) and end (exclusive), lines and columns from one', () => {
    expect(snippetAt(SOURCE, at(1, 11, 1, 12))).toBe('1')
    expect(snippetAt(SOURCE, at(1, 1, 1, 6))).toBe('const')
  })

  test('across lines, with the line break and indentation as one space', () => {
    expect(snippetAt(SOURCE, at(2, 5, 3, 9))).toBe('ready && open')
  })
})

test('normalizeCode makes a reflowed snippet the same key', () => {
  expect(normalizeCode('  {\n    end()\n    throw error\n  }\n')).toBe('{ end() throw error }')
})

describe('parseEquivalents', () => {
  const entry = {
    file: 'a.ts',
    mutator: 'BooleanLiteral',
    original: 'true',
    replacement: 'false',
    reason: 'r',
  }

  test('a list of complete entries', () => {
    expect(parseEquivalents([entry])).toEqual({ equivalents: [entry] })
    expect(parseEquivalents([])).toEqual({ equivalents: [] })
  })

  test.each([
    { value: {}, error: 'the equivalents list is not a JSON array.' },
    { value: [entry, null], error: 'entry 2 has no text for file, mutator, original, replacement, reason.' },
    { value: [{ ...entry, line: 3, original: undefined }], error: 'entry 1 has no text for original.' },
    { value: [{ ...entry, reason: ' ' }], error: 'entry 1 gives no reason.' },
    { value: [{ ...entry, mutants: 0 }], error: 'entry 1 counts 0 mutants, not a whole number from 1.' },
    { value: [{ ...entry, mutants: '2' }], error: 'entry 1 counts 2 mutants, not a whole number from 1.' },
    {
      value: [entry, { ...entry, original: ' true ', reason: 'another' }],
      error: 'entry 2 repeats the key of entry 1.',
    },
  ])('refused: $error', ({ value, error }) => {
    expect(parseEquivalents(value)).toEqual({ error })
  })
})

describe('judgeFile', () => {
  const mutant = (status: string, mutatorName: string, replacement: string, line = 1) => ({
    status,
    mutatorName,
    replacement,
    location: line === 1 ? at(1, 11, 1, 12) : at(2, 5, 3, 9),
  })
  const listed: Equivalent = {
    file: 'a.ts',
    mutator: 'LogicalOperator',
    original: 'ready &&\n open',
    replacement: 'ready || open',
    reason: 'both are always equal here',
  }

  test('a survivor on the list becomes Equivalent; the entry is matched', () => {
    const result = judgeFile(
      'a.ts',
      SOURCE,
      [mutant('Survived', 'LogicalOperator', 'ready || open', 2)],
      [listed],
    )
    expect(result.mutants.map((m) => m.status)).toEqual(['Equivalent'])
    expect(result.unlisted).toEqual([])
    expect([...result.matched]).toEqual([[listed, 1]])
  })

  test('a mutant without coverage on the list is Equivalent too', () => {
    const result = judgeFile(
      'a.ts',
      SOURCE,
      [mutant('NoCoverage', 'LogicalOperator', 'ready || open', 2)],
      [listed],
    )
    expect(result.mutants.map((m) => m.status)).toEqual(['Equivalent'])
  })

  test.each([
    { name: 'another file', file: 'b.ts', mutator: 'LogicalOperator', replacement: 'ready || open' },
    { name: 'another mutator', file: 'a.ts', mutator: 'ConditionalExpression', replacement: 'ready || open' },
    { name: 'another replacement', file: 'a.ts', mutator: 'LogicalOperator', replacement: 'true' },
  ])('a survivor differing in $name is unlisted and stays a survivor', ({ file, mutator, replacement }) => {
    const result = judgeFile(file, SOURCE, [mutant('Survived', mutator, replacement, 2)], [listed])
    expect(result.mutants.map((m) => m.status)).toEqual(['Survived'])
    expect(result.unlisted).toEqual([{ file, line: 2, mutator, original: 'ready && open', replacement }])
    expect(result.matched.size).toBe(0)
  })

  test('a listed key on another original code is no match', () => {
    const result = judgeFile(
      'a.ts',
      SOURCE,
      [mutant('Survived', 'LogicalOperator', 'ready || open', 1)],
      [listed],
    )
    expect(result.unlisted).toHaveLength(1)
  })

  test('detected mutants are left alone, even when their key is listed', () => {
    const mutants = [mutant('Killed', 'LogicalOperator', 'ready || open', 2), mutant('Timeout', 'X', '0')]
    const result = judgeFile('a.ts', SOURCE, mutants, [listed])
    expect(result.mutants).toEqual(mutants)
    expect(result.unlisted).toEqual([])
    expect(result.matched.size).toBe(0)
  })

  test('a listed mutant that timed out (a busy machine) stays equivalent and its entry matched', () => {
    const result = judgeFile(
      'a.ts',
      SOURCE,
      [mutant('Timeout', 'LogicalOperator', 'ready || open', 2)],
      [listed],
    )
    expect(result.mutants.map((m) => m.status)).toEqual([EQUIVALENT])
    expect(result.unlisted).toEqual([])
    expect([...result.matched]).toEqual([[listed, 1]])
  })

  test('a time-out on a listed key fills the entry only up to its count: beyond, it is detected', () => {
    const mutants = [
      mutant('Survived', 'LogicalOperator', 'ready || open', 2),
      mutant('Timeout', 'LogicalOperator', 'ready || open', 2),
    ]
    const result = judgeFile('a.ts', SOURCE, mutants, [listed])
    expect(result.mutants.map((m) => m.status)).toEqual([EQUIVALENT, 'Timeout'])
    expect([...result.matched]).toEqual([[listed, 1]])
    // The day the timed-out mutant survives too, the entry matches more than it counts, and the run fails.
    const later = judgeFile('a.ts', SOURCE, [mutants[0]!, { ...mutants[1]!, status: 'Survived' }], [listed])
    expect([...later.matched]).toEqual([[listed, 2]])
  })

  test('survivors take an entry before time-outs, wherever they stand in the file', () => {
    const mutants = [
      mutant('Timeout', 'LogicalOperator', 'ready || open', 2),
      mutant('Survived', 'LogicalOperator', 'ready || open', 2),
    ]
    const result = judgeFile('a.ts', SOURCE, mutants, [listed])
    expect(result.mutants.map((m) => m.status)).toEqual(['Timeout', EQUIVALENT])
    expect([...result.matched]).toEqual([[listed, 1]])
  })
})

test('an unlisted survivor is named where it is, with the entry that would list it', () => {
  const line = describeSurvivor({ file: 'a.ts', line: 2, mutator: 'M', original: 'x', replacement: 'y' })
  expect(line).toBe('a.ts:2 {"file":"a.ts","mutator":"M","original":"x","replacement":"y","reason":""}')
})
