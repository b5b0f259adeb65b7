// `CONTRACT_TARGET=<url> npm run test:contracts` end to end (docs/decisions/016-contract-target.md).
// A few files, once with a control token and twice against `--production`, so `npm test` proves the path. The
// settings a check asks of the target are proved through the fault proxy's run without a fault (target-faults.test.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import {
  checksRan,
  checksWith,
  CHILD_RUN_TIMEOUT_MS,
  readCtrf,
  runContracts,
  startMockServer,
} from '#contracts/support/target-child.ts'
import { unclaimedPort } from '../../mock-server/testing/ports.ts'

const FILES = [
  'contracts/product/auth-codes.contract.test.ts',
  'contracts/product/auth-signup.contract.test.ts',
]
/** With the control token: also the suites that read state and journal through GET /__mock/state and /requests. */
const TOKEN_FILES = [
  ...FILES,
  'contracts/pipeline/bad-input.contract.test.ts',
  'contracts/pipeline/generated-input.contract.test.ts',
]

/**
 * Three sign-up checks wait out the 30 s code cooldown in real time, one after another, against a target whose clock
 * cannot be moved: 93 s of the mail run's 2 minutes alone, and its 300 s time-out nearly reached beside the other legs
 * on a slow machine (244 s). Every store runs them with the clock moved; waitPast's real wait is expiry.test.ts's.
 */
const COOLDOWN_WAITS = 'same answer as a new one|while the first code is alive|resent after the cooldown'
const NOT_THE_COOLDOWN_WAITS = ['--testNamePattern', `^(?!.*(${COOLDOWN_WAITS}))`]

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T

test(
  'against a mock server with its control token: the checks run, reset between tests; what needs another server is counted',
  async () => {
    const server = await startMockServer([], { MOCK_CONTROL_TOKEN: 'target-run-token' })
    try {
      const withToken = await runContracts(
        {
          CONTRACT_TARGET: server.origin,
          CONTRACT_CONTROL_TOKEN: 'target-run-token',
          GENERATED_INPUT_REQUESTS: '340',
        },
        TOKEN_FILES,
      )
      expect(withToken.code, withToken.output).toBe(0)
      // 88 checks; two cannot be made against a target. The sign-up limit is reached at the target's own.
      expect(checksRan(withToken.output)).toBe(86)
      expect(withToken.output).not.toMatch(/needs the \/__mock control surface/)
      expect(withToken.output).toMatch(/Generated input: 340 requests over 17 operations/)

      // The reports CI reads say the same: CTRF and JUnit name each not-checkable check as skipped with its reason,
      // and the coverage files count them.
      const ctrf = readCtrf(withToken.reports)
      expect(ctrf.reportFormat).toBe('CTRF')
      expect(ctrf.results.summary).toMatchObject({ tests: 88, passed: 86, skipped: 2, failed: 0 })
      const skipped = ctrf.results.tests.filter((one) => one.status === 'skipped')
      expect(skipped.map((one) => one.message).sort()).toEqual([
        'not checkable against this target: needs the in-process app (read .core)',
        "not checkable against this target: sends nothing to the target (it checks this repository's own files)",
      ])
      expect(readFileSync(join(withToken.reports, 'junit.xml'), 'utf8')).toMatch(/tests="88" failures="0"/)
      const coverage = readJson<{ target: string; notCheckable: unknown[] }>(
        join(withToken.reports, 'coverage.json'),
      )
      expect(coverage.target).toBe(server.origin)
      expect(coverage.notCheckable).toHaveLength(2)
      expect(readFileSync(join(withToken.reports, 'coverage.md'), 'utf8')).toContain(
        `## Not checkable against ${server.origin}`,
      )
    } finally {
      server.stop()
    }
  },
  CHILD_RUN_TIMEOUT_MS,
)

test(
  'against the mock server in --production: the checks that need no control run, the rest are not checkable',
  async () => {
    const server = await startMockServer(['--production'])
    try {
      const { code, output } = await runContracts({ CONTRACT_TARGET: server.origin }, FILES)
      expect(code, output).toBe(0)
      expect(checksRan(output)).toBeGreaterThanOrEqual(3)
      expect(output).toMatch(
        /needs the \/__mock control surface, which the target does not offer \(GET \/__mock\/clock: 404\)/,
      )
    } finally {
      server.stop()
    }
  },
  CHILD_RUN_TIMEOUT_MS,
)

test(
  'against --production with its mail sent to the suite and its CORS origin declared: sign-up, expiry, the catalogue row it produces and the cross-origin checks run',
  async () => {
    const smtpPort = await unclaimedPort()
    const server = await startMockServer([
      '--production',
      '--access-ttl',
      '3s',
      '--smtp',
      `smtp://127.0.0.1:${smtpPort}`,
      '--cors-origin',
      'https://app.example',
    ])
    try {
      const run = await runContracts(
        {
          CONTRACT_TARGET: server.origin,
          CONTRACT_SMTP_PORT: String(smtpPort),
          CONTRACT_TARGET_CORS_ORIGINS: 'https://app.example',
        },
        [
          'contracts/hosts/cors.contract.test.ts',
          'contracts/product/auth-signup.contract.test.ts',
          'contracts/product/account.contract.test.ts',
          'contracts/product/error-catalogue.contract.test.ts',
          ...NOT_THE_COOLDOWN_WAITS,
        ],
      )
      expect(run.code, run.output).toBe(0)
      expect(run.output).toContain(
        `reading the target's codes from the mail it sends to smtp://127.0.0.1:${smtpPort}`,
      )
      // Exactly the three are left out: a renamed one would wait again, another named alike would be lost.
      const leftOut = readCtrf(run.reports).results.tests.filter((one) =>
        new RegExp(COOLDOWN_WAITS).test(one.name),
      )
      expect(leftOut.map((one) => one.status)).toEqual(['skipped', 'skipped', 'skipped'])
      const passed = checksWith(run.reports, 'passed')
      // Each needs a code read from the mail; the catalogue row also waited for the 3 s lifetime. The app's origin
      // is the declared one, so its sign-out runs.
      for (const check of [
        'mails a 6-digit code and answers 202',
        'refresh-fails-rejected',
        'the named origin signs out with its cookie and bearer; another origin is still refused and ends nothing',
      ])
        expect(
          passed.some((name) => name.endsWith(check)),
          check,
        ).toBe(true)
      expect(run.output).not.toMatch(/needs the codes the target mails/)
    } finally {
      server.stop()
    }
  },
  CHILD_RUN_TIMEOUT_MS,
)
