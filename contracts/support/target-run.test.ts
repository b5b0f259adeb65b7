// `CONTRACT_TARGET=<url> npm run test:contracts` end to end (docs/decisions/016-contract-target.md).
// A few files, once with a control token and once against `--production`, so `npm test` proves the path.
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
  "against a mock server with its control token: the session suite and T2, T3, T5 run, as their grace window is the target's",
  async () => {
    const server = await startMockServer([], { MOCK_CONTROL_TOKEN: 'target-run-token' })
    try {
      const run = await runContracts(
        { CONTRACT_TARGET: server.origin, CONTRACT_CONTROL_TOKEN: 'target-run-token' },
        ['contracts/product/session.contract.test.ts', 'contracts/attacks/attack-sessions.contract.test.ts'],
      )
      expect(run.code, run.output).toBe(0)
      const passed = checksWith(run.reports, 'passed')
      for (const check of ['T2 reuse after the grace window', 'T3 a grandparent', 'T5 a duplicated tab'])
        expect(
          passed.some((name) => name.includes(check)),
          check,
        ).toBe(true)
      const coverage = readJson<{
        notCheckable: { file: string; reason: string }[]
        matchedSettings: { file: string; name: string; settings: string[] }[]
      }>(join(run.reports, 'coverage.json'))
      const SESSION = 'contracts/product/session.contract.test.ts'
      // Of its 20 checks, only the two that build a server unlike the target are not checkable; the rest ran.
      expect(
        coverage.notCheckable
          .filter((one) => one.file === SESSION)
          .map((one) => one.reason)
          .sort(),
      ).toEqual([
        "needs a server built with refreshTokenTtlMs 60000 where the target's is 86400000 (GET /__mock/settings)",
        "needs a server built with trustProxyHops 1 where the target's is 0 (GET /__mock/settings; no proxy hops taken, as CONTRACT_TARGET_TRUST_PROXY declares none)",
      ])
      const matched = coverage.matchedSettings.filter((one) => one.file === SESSION)
      expect(matched).toHaveLength(18)
      for (const check of matched) expect(check.settings).toEqual(['refreshGraceMs 10000'])
      expect(run.output).toMatch(
        /\d+ of the checks that ran asked for settings the target has:\n\s+\d+ {2}refreshGraceMs 10000/,
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
        ],
      )
      expect(run.code, run.output).toBe(0)
      expect(run.output).toContain(
        `reading the target's codes from the mail it sends to smtp://127.0.0.1:${smtpPort}`,
      )
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
