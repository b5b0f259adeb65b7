import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { formatFailure, readModelOptions } from '#contracts/model/figures.ts'

describe('readModelOptions', () => {
  test('reads the runs, the seed and the replay paths; draws a seed when none is given', () => {
    expect(
      readModelOptions({ MODEL_RUNS: '7', MODEL_SEED: '42', MODEL_PATH: '3:1', MODEL_REPLAY_PATH: 'AB:C' }),
    ).toEqual({
      runs: 7,
      seed: 42,
      path: '3:1',
      replayPath: 'AB:C',
    })
    expect(Number.isInteger(readModelOptions({}).seed)).toBe(true)
  })

  test.each([
    [{ MODEL_RUNS: 'many' }, 'MODEL_RUNS is an integer, not "many".'],
    [{ MODEL_RUNS: '0' }, 'MODEL_RUNS is a count of runs, at least 1, not 0.'],
    [{ MODEL_SEED: '1.5' }, 'MODEL_SEED is an integer, not "1.5".'],
  ])('refuses %o in one sentence', (env, message) => {
    expect(() => readModelOptions(env)).toThrow(message)
  })
})

describe('formatFailure', () => {
  test('lists the steps and the command line that replays the shrunk sequence', () => {
    const details = fc.check(
      fc.property(fc.nat(), (n) => n < 10),
      { seed: 1, numRuns: 100 },
    )
    const text = formatFailure({ runs: 100, seed: 1, target: 'in-process (memory)' }, details, [
      'signUp(a)',
      'refresh(tab 0)',
    ])
    expect(text).toContain('The model-based run against in-process (memory) failed after')
    expect(text).toContain('  1. signUp(a)\n  2. refresh(tab 0)')
    expect(text).toMatch(
      /Replay it: MODEL_SEED=1 MODEL_PATH=[\d:]+ npx vitest run --project contracts contracts\/model\//,
    )
  })
})
