import { expect, test } from 'vitest'
import { formatScores, formatScoresMarkdown, getFileScore } from './mutation-scores.ts'

const statuses = (...list: string[]) => list.map((status) => ({ status }))

const rows = [
  { mutants: statuses('Killed', 'Killed', 'Timeout', 'Killed'), score: 100 },
  { mutants: statuses('Killed', 'Survived'), score: 50 },
  { mutants: statuses('Killed', 'NoCoverage', 'Survived', 'Timeout'), score: 50 },
  // Not valid mutants: they count in neither side of the score.
  { mutants: statuses('Killed', 'CompileError', 'RuntimeError', 'Ignored'), score: 100 },
  // Survivors on the equivalents list (stryker-equivalents.json) count in neither side either.
  { mutants: statuses('Killed', 'Equivalent', 'Equivalent'), score: 100 },
  { mutants: statuses('Equivalent'), score: null },
  { mutants: statuses('CompileError'), score: null },
  { mutants: [], score: null },
] as const

test.each(rows)('score of $mutants -> $score', ({ mutants, score }) => {
  expect(getFileScore('a.ts', mutants).score).toBe(score)
})

test('counts each status', () => {
  const mutants = statuses(
    'Killed',
    'Killed',
    'Survived',
    'NoCoverage',
    'NoCoverage',
    'NoCoverage',
    'Timeout',
    'Equivalent',
  )
  expect(getFileScore('a.ts', mutants)).toEqual({
    file: 'a.ts',
    killed: 2,
    survived: 1,
    noCoverage: 3,
    timeout: 1,
    equivalent: 1,
    score: (3 / 7) * 100,
  })
})

test('one line per file, scores to one decimal', () => {
  const lines = formatScores([
    getFileScore('web/a.ts', statuses('Killed', 'Killed', 'Survived')),
    getFileScore('b.ts', []),
  ])
  expect(lines).toEqual([
    'file          killed    survived no-coverage     timeout  equivalent     score %',
    'web/a.ts           2           1           0           0           0        66.7',
    'b.ts               0           0           0           0           0         n/a',
  ])
})

test('the markdown table counts every mutant, timeouts as killed, with each file its bar', () => {
  const lines = formatScoresMarkdown(
    [
      getFileScore('a.ts', statuses('Killed', 'Timeout', 'Survived', 'NoCoverage', 'Equivalent')),
      getFileScore('b.ts', []),
    ],
    (file) => (file === 'a.ts' ? 90 : 95),
  )
  expect(lines).toEqual([
    '| file | mutants | killed | survived | no coverage | equivalent | score % | bar % |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    '| `a.ts` | 5 | 2 | 1 | 1 | 1 | 50.0 | 90 |',
    '| `b.ts` | 0 | 0 | 0 | 0 | 0 | n/a | 95 |',
  ])
})
