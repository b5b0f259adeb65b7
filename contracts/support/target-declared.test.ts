// A setting declared for a target (CONTRACT_TARGET_TRUST_PROXY, docs/contract-suite.md, "The target's settings")
// lets the checks of a server built with it run there. A declaration the target does not really have must fail
// those checks, never pass them: each run here points the proxy checks at a --production server started with or
// without --trust-proxy 1, declared one way or the other.
import { expect, test } from 'vitest'
import {
  checksWith,
  CHILD_RUN_TIMEOUT_MS,
  readCtrf,
  runContracts,
  startMockServer,
} from '#contracts/support/target-child.ts'
import { unclaimedPort } from '../../mock-server/testing/ports.ts'

const FILES = [
  'contracts/product/session.contract.test.ts',
  'contracts/attacks/attack-hardening.contract.test.ts',
  'contracts/attacks/attack-surface.contract.test.ts',
  'contracts/attacks/attack-lockout.contract.test.ts',
]
const PROXY_CHECKS = [
  '--testNamePattern',
  '__Host- prefix over https|HSTS|X-Forwarded-Proto|proxies and limiter|IPv6 /64',
]
/** The checks of a server that trusts one proxy hop. */
const BEHIND_ONE_PROXY = [
  /is Secure with the __Host- prefix over https/,
  /HSTS is sent over https only/,
  /X-Forwarded-Proto is read from the trusted hop/,
  /one client inventing X-Forwarded-For entries gets no fresh sign-in budget/,
  /two IPv6 addresses in one \/64 share a budget/,
  /another address of the attacker’s IPv6 \/64 is the same client: locked too/,
]
const WITHOUT_PROXY = /without --trust-proxy, X-Forwarded-For is not read at all/

/**
 * The proxy checks against a --production server with `args`, its mail read from the suite's capture (the cookie and
 * lock-out checks sign up), the run declaring `hops` (undefined: nothing).
 */
async function runAgainst(args: string[], hops: string | undefined) {
  const smtpPort = await unclaimedPort()
  const server = await startMockServer(['--production', '--smtp', `smtp://127.0.0.1:${smtpPort}`, ...args])
  try {
    const run = await runContracts(
      {
        CONTRACT_TARGET: server.origin,
        CONTRACT_SMTP_PORT: String(smtpPort),
        ...(hops !== undefined && { CONTRACT_TARGET_TRUST_PROXY: hops }),
      },
      [...FILES, ...PROXY_CHECKS],
    )
    const { tests } = readCtrf(run.reports).results
    const withStatus = (check: RegExp) => tests.find((one) => check.test(one.name))
    return {
      ...run,
      failed: checksWith(run.reports, 'failed'),
      passed: checksWith(run.reports, 'passed'),
      withStatus,
    }
  } finally {
    server.stop()
  }
}

test(
  'a target started with --trust-proxy 1 and declared so: the checks of one proxy hop run and pass',
  async () => {
    const run = await runAgainst(['--trust-proxy', '1'], '1')
    expect(run.code, run.output).toBe(0)
    for (const check of BEHIND_ONE_PROXY) expect(run.withStatus(check)?.status, String(check)).toBe('passed')
    expect(run.withStatus(WITHOUT_PROXY)?.message).toContain(
      "needs a server built with trustProxyHops 0 where the target's is 1",
    )
  },
  CHILD_RUN_TIMEOUT_MS,
)

test(
  'a target declared to trust one proxy hop that trusts none fails every check of one hop',
  async () => {
    const run = await runAgainst([], '1')
    expect(run.code, run.output).not.toBe(0)
    for (const check of BEHIND_ONE_PROXY) expect(run.withStatus(check)?.status, String(check)).toBe('failed')
  },
  CHILD_RUN_TIMEOUT_MS,
)

test(
  'a target that trusts one proxy hop, undeclared, is taken to trust none: the check of no proxy fails',
  async () => {
    const run = await runAgainst(['--trust-proxy', '1'], undefined)
    expect(run.code, run.output).not.toBe(0)
    expect(run.failed).toEqual([expect.stringMatching(WITHOUT_PROXY)])
    for (const check of BEHIND_ONE_PROXY)
      expect(run.withStatus(check)?.message, String(check)).toContain(
        'no proxy hops taken, as CONTRACT_TARGET_TRUST_PROXY declares none',
      )
  },
  CHILD_RUN_TIMEOUT_MS,
)
