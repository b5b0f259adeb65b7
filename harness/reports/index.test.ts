import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { expect, test } from 'vitest'
import { buildCtrf } from './ctrf.ts'
import { EXPECTED_FILES, readReports } from './index.ts'

test('every expected report present: a line per suite, with the Node it ran on where said; one missing or unreadable: named', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reports-'))
  try {
    for (const file of EXPECTED_FILES) {
      mkdirSync(dirname(join(dir, file)), { recursive: true })
      const ctrf = buildCtrf({
        tool: 'vitest',
        start: 0,
        stop: 2_500,
        ...(file.startsWith('unit/') && { environment: { testEnvironment: 'node v24.1.0' } }),
        tests: [
          { name: 'a', status: 'passed', duration: 1 },
          { name: 'b', status: 'skipped', duration: 0 },
        ],
      })
      writeFileSync(join(dir, file), file.endsWith('ctrf.json') ? JSON.stringify(ctrf) : 'x')
    }
    expect(readReports(dir)).toMatchObject({
      missing: [],
      lines: [
        'unit      2 tests: 1 passed, 0 failed, 1 skipped (2.5 s, node v24.1.0)',
        'contracts 2 tests: 1 passed, 0 failed, 1 skipped (2.5 s)',
        'e2e       2 tests: 1 passed, 0 failed, 1 skipped (2.5 s)',
      ],
    })

    rmSync(join(dir, 'e2e/junit.xml'))
    writeFileSync(join(dir, 'unit/ctrf.json'), '{ not json')
    expect(readReports(dir).missing).toEqual(['e2e/junit.xml', 'unit/ctrf.json (unreadable)'])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
