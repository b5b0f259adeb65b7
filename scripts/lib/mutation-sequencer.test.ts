import { expect, test } from 'vitest'
import { cheapestFirst, LongestRuns, type FileCost } from './mutation-sequencer.ts'

const file = (name: string, cost: Partial<FileCost>): FileCost & { name: string } => ({
  name,
  group: 0,
  project: 'unit-server',
  duration: undefined,
  size: undefined,
  ...cost,
})

const order = (files: (FileCost & { name: string })[]) =>
  [...files].sort(cheapestFirst).map(({ name }) => name)

test('the unit test that kills in a millisecond runs before a file that boots a database', () => {
  expect(
    order([
      file('shared-idp (PGlite)', { duration: 4_200, size: 9_199 }),
      file('provider', { duration: 35, size: 12_000 }),
      file('token', { duration: 120, size: 8_000 }),
    ]),
  ).toEqual(['provider', 'token', 'shared-idp (PGlite)'])
})

test('groups and projects keep their order: every unit test before the contract suite, however long', () => {
  expect(
    order([
      file('a contract', { group: 1, project: 'contracts', duration: 5 }),
      file('a long unit test', { duration: 9_000 }),
      file('a web unit test', { project: 'unit-web', duration: 1 }),
    ]),
  ).toEqual(['a long unit test', 'a web unit test', 'a contract'])
})

test('known runs by length, then files never run by size', () => {
  expect(
    order([
      file('never run, large', { size: 20_000 }),
      file('slow', { duration: 3_000 }),
      file('slower', { duration: 4_000 }),
      file('never run, small', { size: 2_000 }),
      file('quick', { duration: 10 }),
      file('never run, size unknown', {}),
    ]),
  ).toEqual(['quick', 'slow', 'slower', 'never run, small', 'never run, large', 'never run, size unknown'])
})

test("a file's cost is its longest run: a run that filtered out all its tests does not make it cheap", () => {
  const runs = new LongestRuns()
  expect(runs.see('shared-idp (PGlite)', undefined)).toBeUndefined()
  expect(runs.see('shared-idp (PGlite)', 4_200)).toBe(4_200)
  expect(runs.see('shared-idp (PGlite)', 3)).toBe(4_200)
  expect(runs.see('shared-idp (PGlite)', undefined)).toBe(4_200)
  expect(runs.see('provider', 35)).toBe(35)
  expect(runs.see('provider', 60)).toBe(60)
})
