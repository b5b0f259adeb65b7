import { expect, test } from 'vitest'
import { addLoadFailures, LOAD_FAILURE, type CollectedFile } from './load-failure-reporter.ts'

const loadError = { message: 'Iterator value undefined is not an entry object' }
const file = (name: string, result: CollectedFile['result'], tasks: object[] = []): CollectedFile => ({
  id: `id-${name}`,
  name,
  filepath: `/repo/${name}`,
  result,
  tasks,
})

test('a file that failed with no test collected gets one failed test carrying its load error', () => {
  const unloaded = file('a.test.ts', { state: 'fail', errors: [loadError] })
  expect(addLoadFailures([unloaded])).toBe(1)
  expect(unloaded.tasks).toEqual([
    expect.objectContaining({
      type: 'test',
      name: LOAD_FAILURE,
      mode: 'run',
      result: { state: 'fail', errors: [loadError] },
    }),
  ])
  // The runner names a test by its file's path and its suites' names up to the file.
  expect(unloaded.tasks[0]).toMatchObject({ file: unloaded, suite: unloaded })
})

test('a file that failed without an error still gets its failed test', () => {
  const unloaded = file('a.test.ts', { state: 'fail' })
  addLoadFailures([unloaded])
  expect(unloaded.tasks).toEqual([expect.objectContaining({ result: { state: 'fail', errors: [] } })])
})

test('files that loaded keep their tasks, passed or failed; a file not run stays as it is', () => {
  const failedTest = { type: 'test', name: 'x', result: { state: 'fail' } }
  const files = [
    file('passed.test.ts', { state: 'pass' }, [{ type: 'test', name: 'y', result: { state: 'pass' } }]),
    file('failed.test.ts', { state: 'fail' }, [failedTest]),
    file('empty.test.ts', { state: 'pass' }),
    file('skipped.test.ts', undefined),
  ]
  const before = structuredClone(files)
  expect(addLoadFailures(files)).toBe(0)
  expect(files).toEqual(before)
})
