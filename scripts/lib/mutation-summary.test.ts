import { expect, test } from 'vitest'
import type { Equivalent } from './mutation-equivalents.ts'
import { readReport, summarizeMutation, type MutationReport } from './mutation-summary.ts'

// a.ts: `n > 0` mutated twice; b.ts: one mutant. Columns from one, end exclusive.
const A = 'export const ok = (n) => n > 0\n'
const GT = { start: { line: 1, column: 26 }, end: { line: 1, column: 31 } }
const mutant = (status: string, mutatorName: string, replacement: string) => ({
  status,
  mutatorName,
  replacement,
  location: GT,
})
const equivalent: Equivalent = {
  file: 'a.ts',
  mutator: 'EqualityOperator',
  original: 'n > 0',
  replacement: 'n >= 0',
  reason: 'n is never 0 here',
}

function report(aStatuses: [string, string], bStatus = 'Killed'): MutationReport {
  return {
    files: {
      'a.ts': {
        source: A,
        mutants: [
          mutant(aStatuses[0], 'EqualityOperator', 'n >= 0'),
          mutant(aStatuses[1], 'ConditionalExpression', 'true'),
        ],
      },
      'b.ts': { source: A, mutants: [mutant(bStatus, 'ConditionalExpression', 'false')] },
    },
  }
}

test('a listed survivor counts as neither detected nor valid: the run passes', () => {
  const summary = summarizeMutation(report(['Survived', 'Killed']), ['a.ts', 'b.ts'], [equivalent], 95)
  expect(summary.failures).toEqual([])
  expect(summary.table).toEqual([
    'file      killed    survived no-coverage     timeout  equivalent     score %',
    'a.ts           1           0           0           0           1       100.0',
    'b.ts           1           0           0           0           0       100.0',
  ])
})

test('a survivor not on the list fails the run, whatever the score, naming the entry that would list it', () => {
  const summary = summarizeMutation(
    report(['Survived', 'Killed'], 'Survived'),
    ['a.ts', 'b.ts'],
    [equivalent],
    0,
  )
  expect(summary.failures).toEqual([
    'survivor not on the list: b.ts:1 {"file":"b.ts","mutator":"ConditionalExpression","original":"n > 0","replacement":"false","reason":""}',
    'no mutant of b.ts was killed by its tests',
  ])
})

test('an entry matches as many survivors as it counts: one more (a killed twin now surviving) fails the run', () => {
  const twins = (second: string): MutationReport => ({
    files: {
      'a.ts': {
        source: A,
        mutants: [
          mutant('Survived', 'EqualityOperator', 'n >= 0'),
          mutant(second, 'EqualityOperator', 'n >= 0'),
          mutant('Killed', 'ConditionalExpression', 'true'),
        ],
      },
    },
  })
  const run = (second: string, listed: Equivalent) =>
    summarizeMutation(twins(second), ['a.ts'], [listed], 95).failures
  expect(run('Killed', equivalent)).toEqual([])
  expect(run('Survived', equivalent)).toEqual([
    'listed equivalent matches 2 survivors, not 1: {"file":"a.ts","mutator":"EqualityOperator","original":"n > 0","replacement":"n >= 0"}',
  ])
  expect(run('Survived', { ...equivalent, mutants: 2 })).toEqual([])
  expect(run('Killed', { ...equivalent, mutants: 2 })).toEqual([
    'listed equivalent matches 1 survivors, not 2: {"file":"a.ts","mutator":"EqualityOperator","original":"n > 0","replacement":"n >= 0"}',
  ])
})

test('a listed equivalent that no longer survives fails the run', () => {
  const summary = summarizeMutation(report(['Killed', 'Killed']), ['a.ts', 'b.ts'], [equivalent], 95)
  expect(summary.failures).toEqual([
    'listed equivalent no longer survives: {"file":"a.ts","mutator":"EqualityOperator","original":"n > 0","replacement":"n >= 0"}',
  ])
})

test('a listed equivalent of a file no longer mutated fails the run', () => {
  const summary = summarizeMutation(report(['Survived', 'Killed']), ['b.ts'], [equivalent], 95)
  expect(summary.failures).toEqual([
    'listed equivalent no longer survives: {"file":"a.ts","mutator":"EqualityOperator","original":"n > 0","replacement":"n >= 0"}',
  ])
})

test('a file under the bar fails, and so does a mutated file missing from the report', () => {
  const summary = summarizeMutation(report(['Killed', 'NoCoverage']), ['a.ts', 'c.ts'], [], 95)
  expect(summary.failures).toEqual([
    'survivor not on the list: a.ts:1 {"file":"a.ts","mutator":"ConditionalExpression","original":"n > 0","replacement":"true","reason":""}',
    'under 95 %: a.ts',
    'not in the report: c.ts',
  ])
})

test('a file whose tests kill none of its mutants fails, even when its survivors are all listed', () => {
  const files = { 'a.ts': { source: A, mutants: [mutant('NoCoverage', 'EqualityOperator', 'n >= 0')] } }
  const summary = summarizeMutation({ files }, ['a.ts'], [equivalent], 95)
  expect(summary.failures).toEqual(['no mutant of a.ts was killed by its tests'])
  expect(summary.table[1]).toMatch(/ {9}1 {9}n\/a$/)
})

test('each file is held to its own bar, and the markdown table shows it', () => {
  const summary = summarizeMutation(report(['Killed', 'Survived']), ['a.ts', 'b.ts'], [], {
    'a.ts': 50,
    'b.ts': 95,
  })
  expect(summary.failures).toEqual([
    'survivor not on the list: a.ts:1 {"file":"a.ts","mutator":"ConditionalExpression","original":"n > 0","replacement":"true","reason":""}',
  ])
  const withHigherBar = summarizeMutation(report(['Killed', 'Survived']), ['a.ts', 'b.ts'], [], {
    'a.ts': 90,
  })
  expect(withHigherBar.failures).toContain('under 90 %: a.ts')
  expect(summary.markdown.slice(2)).toEqual([
    '| `a.ts` | 2 | 1 | 1 | 0 | 0 | 50.0 | 50 |',
    '| `b.ts` | 1 | 1 | 0 | 0 | 0 | 100.0 | 95 |',
  ])
})

test('a mutant ignored by a comment or never run, or a file with none killed, fails the run; a static one passes', () => {
  const ignored = (statusReason: string, isStatic = false) => ({
    ...mutant('Ignored', 'EqualityOperator', 'n >= 0'),
    statusReason,
    static: isStatic,
  })
  const run = (mutants: ReturnType<typeof mutant>[]) =>
    summarizeMutation({ files: { 'a.ts': { source: A, mutants } } }, ['a.ts'], [], 100).failures
  const killed = mutant('Killed', 'ConditionalExpression', 'true')
  const STATIC = 'Static mutant (and "ignoreStatic" was enabled)'
  expect(run([ignored(STATIC, true), killed])).toEqual([])
  // A disable comment's reason is free text, Stryker's own words included; only the mutant's static flag is not.
  expect(run([ignored(STATIC), killed])).toEqual([
    'ignored by a comment, not listed: a.ts:1 EqualityOperator (list it as an equivalent, with its reason)',
  ])
  expect(run([ignored('equivalent, n is never 0'), killed])).toEqual([
    'ignored by a comment, not listed: a.ts:1 EqualityOperator (list it as an equivalent, with its reason)',
  ])
  expect(run([mutant('Pending', 'EqualityOperator', 'n >= 0'), killed])).toEqual([
    'not judged (Pending): a.ts:1 EqualityOperator',
  ])
  expect(run([mutant('RuntimeError', 'EqualityOperator', 'n >= 0'), killed])).toEqual([])
  expect(run([mutant('RuntimeError', 'EqualityOperator', 'n >= 0')])).toEqual([
    'no mutant of a.ts was killed by its tests',
  ])
  expect(run([])).toEqual(['no mutant of a.ts was killed by its tests'])
})

test('a Stryker comment in a mutated file fails the run, whatever it ignores', () => {
  const source = `// Stryker disable next-line all: Static mutant\n${A}`
  const files = { 'a.ts': { source, mutants: [{ ...mutant('Killed', 'X', 'y'), location: GT }] } }
  expect(summarizeMutation({ files }, ['a.ts'], [], 95).failures).toEqual([
    'a Stryker comment in a.ts: list its mutants as equivalents, with their reasons',
  ])
})

test('a report it cannot read is one line naming the files, not a stack', () => {
  const good = { source: A, mutants: [mutant('Killed', 'EqualityOperator', 'n >= 0')] }
  expect(readReport({ files: { 'a.ts': good } })).toEqual({ report: { files: { 'a.ts': good } } })
  expect(readReport(null)).toEqual({ error: "holds no files: not a report of Stryker's JSON reporter." })
  expect(readReport({ files: 'a.ts' })).toEqual({
    error: "holds no files: not a report of Stryker's JSON reporter.",
  })
  const { location: _location, ...unlocated } = good.mutants[0]!
  for (const broken of [
    { mutants: good.mutants },
    { source: A },
    { source: A, mutants: [unlocated] },
    { source: A, mutants: [{ ...good.mutants[0]!, location: { start: { line: 1 } } }] },
    { source: A, mutants: [{ ...good.mutants[0]!, status: 3 }] },
    { source: A, mutants: [null] },
  ])
    expect(readReport({ files: { 'a.ts': good, 'b.ts': broken } })).toEqual({
      error: 'no source text, or a mutant without status, mutator or location, for b.ts.',
    })
})
