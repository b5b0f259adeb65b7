import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { modelRunsTable, writeModelRuns, type ModelRunEntry } from './model-runs.ts'

const entry: ModelRunEntry = {
  test: 'contracts/model/model-based.contract.test.ts > random sequences',
  target: 'in-process (memory)',
  runs: 20,
  commands: 240,
  longest: 31,
  seed: 42,
  loose: 3,
  byCommand: { refresh: 40, signUp: 60 },
}

const dirs: string[] = []
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe('model-based runs in the reports', () => {
  test('a table row per run: target, runs, commands executed, longest sequence, seed, commands by kind', () => {
    expect(modelRunsTable([entry])?.rows).toEqual([
      ['in-process (memory)', '20', '240', '31', '42', 'signUp 60, refresh 40'],
    ])
    expect(modelRunsTable([])).toBeNull()
  })

  test('model-runs.json holds every run, an empty list when there was none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'model-runs-'))
    dirs.push(dir)
    expect(JSON.parse(readFileSync(writeModelRuns(dir, [entry]), 'utf8'))).toEqual({ modelRuns: [entry] })
    expect(JSON.parse(readFileSync(writeModelRuns(dir, []), 'utf8'))).toEqual({ modelRuns: [] })
  })
})
