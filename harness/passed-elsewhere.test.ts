// The balancer leg's second step (harness/balancer-leg.ts): in process on PostgreSQL, only what did not pass through
// the balancer runs, and every check of the suite must have passed on the store one way or the other.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, inject, onTestFinished, test } from 'vitest'
import {
  checkKey,
  notPassedOnEither,
  passedChecks,
  readPassedElsewhere,
  writePassedElsewhere,
} from './passed-elsewhere.ts'
import { buildCtrf, type CtrfReport, type CtrfStatus } from './reports/ctrf.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
/** PostgreSQL as harness/postgres-setup.ts found it (under CI=true it must). */
const databaseUrl = inject('databaseUrl')

const report = (...tests: [string, CtrfStatus][]): CtrfReport =>
  buildCtrf({
    tool: 'vitest',
    start: 0,
    stop: 1,
    tests: tests.map(([name, status]) => ({
      name,
      status,
      duration: 1,
      filePath: 'contracts/a.contract.test.ts',
    })),
  })

test('a check passed on neither run is named; one passed on either is not', () => {
  const balancer = report(['x > one', 'passed'], ['x > two', 'skipped'], ['x > three', 'skipped'])
  const inProcess = report(['x > one', 'skipped'], ['x > two', 'passed'], ['x > three', 'failed'])
  expect(passedChecks(balancer)).toEqual([checkKey('contracts/a.contract.test.ts', 'x > one')])
  expect(notPassedOnEither(balancer, inProcess)).toEqual([
    checkKey('contracts/a.contract.test.ts', 'x > three'),
  ])
  // No in-process run at all (it crashed before writing its report): every check not passed through the balancer.
  expect(notPassedOnEither(balancer, null)).toHaveLength(2)
})

test("a describe's random seed is not part of a check's name: each run draws its own", () => {
  expect(checkKey('f.ts', 'conformance (seed 123) > getSession: answers')).toBe(
    checkKey('f.ts', 'conformance (seed 98765) > getSession: answers'),
  )
  expect(checkKey('f.ts', 'a > b')).not.toBe(checkKey('g.ts', 'a > b'))
  expect(checkKey('f.ts', 'a > b')).not.toBe(checkKey('f.ts', 'a > c'))
})

test('the list reads back as written; unset, there is none; on any store but PostgreSQL it is refused', () => {
  const dir = mkdtempSync(join(tmpdir(), 'passed-elsewhere-'))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'passed.json')
  writePassedElsewhere(file, { reason: 'because', checks: ['a :: b'] })
  const list = readPassedElsewhere(file, 'postgres')!
  expect(list.reason).toBe('because')
  expect([...list.checks]).toEqual(['a :: b'])
  expect(readPassedElsewhere(undefined, 'postgres')).toBeNull()
  expect(readPassedElsewhere(' ', undefined)).toBeNull()
  // Anywhere but the balancer leg's PostgreSQL step, an inherited list stops the run rather than skip checks.
  for (const store of [undefined, 'memory', 'pglite'])
    expect(() => readPassedElsewhere(file, store)).toThrow(/only the balancer leg sets it/)
})

test.skipIf(databaseUrl === null)(
  'in a run on PostgreSQL, the listed checks are skipped with the reason, named as CTRF names them; the rest run',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'passed-elsewhere-'))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const FILE = 'contracts/product/session.contract.test.ts'
    const listed = [
      'GET /api/_auth/session > is empty for an unknown cookie',
      'the session cookie > is HttpOnly, SameSite=Lax, Path=/ and not Secure over http',
    ]
    const list = join(dir, 'passed.json')
    writePassedElsewhere(list, {
      reason: 'passed elsewhere',
      checks: listed.map((name) => checkKey(FILE, name)),
    })
    const ctrf = join(dir, 'ctrf.json')
    const { CONTRACT_TARGET: _target, ...env } = process.env
    const run = spawnSync(
      process.execPath,
      [
        'node_modules/vitest/vitest.mjs',
        'run',
        '--project',
        'contracts',
        FILE,
        '--reporter=./harness/reports/vitest-ctrf.ts',
        `--outputFile.ctrf=${ctrf}`,
      ],
      {
        cwd: root,
        encoding: 'utf8',
        env: {
          ...env,
          CONTRACT_STORE: 'postgres',
          TEST_DATABASE_URL: databaseUrl!,
          CONTRACT_PASSED_ELSEWHERE: list,
          CONTRACT_REPORT_DIR: dir,
          NO_COLOR: '1',
        },
      },
    )
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0)
    const { tests } = (JSON.parse(readFileSync(ctrf, 'utf8')) as CtrfReport).results
    const skipped = tests.filter((one) => one.status === 'skipped')
    expect(skipped.map((one) => one.name).sort()).toEqual([...listed].sort())
    for (const one of skipped) expect(one.message).toBe('passed elsewhere')
    expect(tests.filter((one) => one.status === 'passed').length).toBe(tests.length - listed.length)
    expect(tests.length).toBeGreaterThan(10)
  },
  120_000,
)
