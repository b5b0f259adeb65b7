import { expect, test } from 'vitest'
import { readMutationSettings } from './mutation-config.ts'

test("a config without settings of its own is the client run's: 95 % and stryker-equivalents.json", () => {
  expect(readMutationSettings({ default: { mutate: ['a.ts', 'b.ts'] } })).toEqual({
    mutate: ['a.ts', 'b.ts'],
    jsonReport: 'reports/mutation/mutation.json',
    markdownReport: 'reports/mutation/mutation.md',
    equivalents: 'stryker-equivalents.json',
    bars: { 'a.ts': 95, 'b.ts': 95 },
  })
})

test('a config names its report, its list and a bar per file; a file without one gets 95 %', () => {
  const settings = readMutationSettings({
    default: {
      mutate: ['a.ts', 'b.ts'],
      jsonReporter: { fileName: 'reports/mutation/server/mutation.json' },
    },
    mutationReport: { bars: { 'a.ts': 90 }, equivalents: 'server.json' },
  })
  expect(settings).toEqual({
    mutate: ['a.ts', 'b.ts'],
    jsonReport: 'reports/mutation/server/mutation.json',
    markdownReport: 'reports/mutation/server/mutation.md',
    equivalents: 'server.json',
    bars: { 'a.ts': 90, 'b.ts': 95 },
  })
})

test.each([
  [{}, 'its mutate is not a list of files.'],
  [{ default: { mutate: 'a.ts' } }, 'its mutate is not a list of files.'],
  [
    { default: { mutate: ['a.ts'], jsonReporter: { fileName: 'r.html' } } },
    'its jsonReporter.fileName is not a .json file.',
  ],
  [
    { default: { mutate: ['a.ts'] }, mutationReport: { equivalents: 3 } },
    'its mutationReport.equivalents is not a file name.',
  ],
  [
    { default: { mutate: ['a.ts'] }, mutationReport: { bars: { 'a.ts': 150 } } },
    'the bar of a.ts is not a percentage.',
  ],
  [
    { default: { mutate: ['a.ts'] }, mutationReport: { bars: { 'b.ts': 90 } } },
    'it sets a bar for b.ts, which it does not mutate.',
  ],
])('a config that lacks its settings gets one line saying why: %j', (module, error) => {
  expect(readMutationSettings(module)).toEqual({ error })
})
