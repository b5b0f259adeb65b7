// Planted faults (docs/contract-suite.md, "Planted faults"): a mock server with one rule broken by a proxy in
// front of it must fail a contract run pointed at the proxy, and the same run without the fault must pass, with the
// checks that asked for the target's own settings (its grace window) run and those that need other ones counted.
// Each fault is met by the check that names it, so a target run proves it catches what it claims to.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { parseJson, startFaultProxy, withJson, type Fault } from '#contracts/support/fault-proxy.ts'
import { CHILD_RUN_TIMEOUT_MS, runContracts, startMockServer } from '#contracts/support/target-child.ts'

const TOKEN = 'target-faults-token'
const FILES = [
  'contracts/product/session.contract.test.ts',
  'contracts/attacks/attack-sessions.contract.test.ts',
]
/** Only the session suite's refresh checks and T2, T3, T5: the faults are in refresh, and the run stays short. */
const REFRESH_CHECKS = ['--testNamePattern', 'POST /api/refresh_token|T[235] ']
const REFRESH = 'POST /api/refresh_token'

const sentToken = (call: Parameters<Fault>[0]) =>
  (call.json() as { refresh_token?: unknown } | undefined)?.refresh_token

/** (a) No rotation: every successful refresh hands back the refresh token it was sent. */
const noRotation = (): Fault => (call) =>
  call.answer.status === 200
    ? withJson(call.answer, { ...(parseJson(call.answer.body) as object), refresh_token: sentToken(call) })
    : undefined

/** (b) No reuse detection: a retired token reused (refresh_reused) gets the pair it was once answered with. */
function noReuseDetection(): Fault {
  const answered = new Map<unknown, unknown>()
  return (call) => {
    const body = parseJson(call.answer.body) as { error?: unknown } | undefined
    if (call.answer.status === 200) answered.set(sentToken(call), body)
    if (call.answer.status !== 401 || body?.error !== 'refresh_reused' || !answered.has(sentToken(call)))
      return undefined
    return { ...withJson(call.answer, answered.get(sentToken(call))), status: 200 }
  }
}

interface CtrfTest {
  name: string
  status: string
}

let mock: Awaited<ReturnType<typeof startMockServer>>
beforeAll(async () => {
  mock = await startMockServer([], { MOCK_CONTROL_TOKEN: TOKEN })
}, 60_000)
afterAll(() => mock.stop())

/**
 * The two files (the refresh checks alone, with `only`) run against a proxy in front of the mock server with `faults`;
 * the CTRF tests by status.
 */
async function runThrough(faults: Record<string, Fault>, only: string[] = REFRESH_CHECKS) {
  const proxy = await startFaultProxy(mock.origin, faults)
  try {
    const run = await runContracts({ CONTRACT_TARGET: proxy.origin, CONTRACT_CONTROL_TOKEN: TOKEN }, [
      ...FILES,
      ...only,
    ])
    const { results } = JSON.parse(readFileSync(join(run.reports, 'ctrf.json'), 'utf8')) as {
      results: { tests: CtrfTest[] }
    }
    const named = (status: string) =>
      results.tests.filter((one) => one.status === status).map((one) => one.name)
    return { ...run, failed: named('failed'), passed: named('passed'), replaced: proxy.replaced() }
  } finally {
    await proxy.close()
  }
}

test(
  "without a fault, both files pass through the proxy, T2, T3 and T5 among them, as their grace window is the target's",
  async () => {
    const run = await runThrough({}, [])
    expect(run.code, run.output).toBe(0)
    expect(run.failed).toEqual([])
    for (const check of [
      /T2 reuse after the grace window/,
      /T3 a grandparent/,
      /T5 a duplicated tab/,
      /rotates: a new pair/,
    ])
      expect(
        run.passed.some((name) => check.test(name)),
        `${check} passed`,
      ).toBe(true)
    const coverage = JSON.parse(readFileSync(join(run.reports, 'coverage.json'), 'utf8')) as {
      notCheckable: { file: string; reason: string }[]
      matchedSettings: { file: string; name: string; settings: string[] }[]
    }
    const SESSION = 'contracts/product/session.contract.test.ts'
    // Of the session suite's 20 checks, only the two that build a server unlike the target are not checkable.
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
  },
  CHILD_RUN_TIMEOUT_MS,
)

test(
  'a refresh that hands back the token it was sent (no rotation) fails the run, caught by the rotation check',
  async () => {
    const run = await runThrough({ [REFRESH]: noRotation() })
    expect(run.replaced).toBeGreaterThan(0)
    expect(run.code, run.output).not.toBe(0)
    expect(run.failed).toContainEqual(
      expect.stringMatching(/POST \/api\/refresh_token > rotates: a new pair/),
    )
  },
  CHILD_RUN_TIMEOUT_MS,
)

test(
  'a retired refresh token reused after the grace window getting its earlier pair (no reuse detection) fails the run, caught by T2',
  async () => {
    const run = await runThrough({ [REFRESH]: noReuseDetection() })
    expect(run.replaced).toBeGreaterThan(0)
    expect(run.code, run.output).not.toBe(0)
    expect(run.failed).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/T2 reuse after the grace window revokes the family/),
        expect.stringMatching(/reuse after the grace window revokes the whole family/),
      ]),
    )
  },
  CHILD_RUN_TIMEOUT_MS,
)
