/**
 * The contract agents of a shared CONTRACT_TARGET (docs/decisions/016-contract-target.md).
 * A request the target cannot answer as the test's own server would ends the test as not checkable, with the reason.
 * So does a 429 caused by earlier checks of this run, when there is no control surface to reset it.
 */
import type { Response, Test } from 'supertest'
import { TestRunner } from 'vitest'
import type { AppOptions } from '#mock-server/app.ts'
import { createContractAgent, METHODS, type ContractAgent } from '#contracts/support/api.ts'
import { getProjectValidator } from '#contracts/support/openapi-validator.ts'
import { checkRateLimit } from '#contracts/support/target-limit.ts'
import { isLoopbackTarget } from '#contracts/support/loopback-target.ts'
import { TargetTest } from '#contracts/support/target-test.ts'
import { mailedCodeOf, type CodeSource } from '#contracts/support/code-source.ts'
import { COMPARABLE_OPTIONS, compareSettings } from '#contracts/support/target-settings.ts'
import {
  countTargetRequest,
  getContractTarget,
  notCheckable,
  type ContractTarget,
} from '#contracts/support/target.ts'

export interface TargetRules {
  /** Why /__mock cannot be used (null: it can, or the test expects a server without it). */
  noControl: string | null
  /** No /__mock to reset the target between checks. */
  rateLimitedWithoutReset: boolean
  /** The test expects a mock-mode server and the target is a production one. */
  mockModeOnProduction: boolean
}

/** The control document's paths a production server serves too: liveness and readiness (docs/mock-server.md). */
export const SERVED_IN_PRODUCTION: ReadonlySet<string> = new Set(['/healthz', '/readyz'])

/** The agent of `target` (with `headers`) under `rules`: validated and counted like every contract agent. */
export function createTargetAgent(
  target: ContractTarget,
  rules: TargetRules,
  headers: Record<string, string> = {},
): ContractAgent {
  const validator = getProjectValidator()
  const { codes } = target
  const agent = createContractAgent(target.baseUrl, {
    headers,
    ...(rules.noControl !== null && { noControl: rules.noControl }),
    ...(codes !== null && { codes }),
    createTest: (method, path) =>
      new TargetTest(
        target.baseUrl,
        method,
        path,
        rules.mockModeOnProduction,
        target.clients.http(target.baseUrl),
      ),
  })
  const open = (method: string, path: string): Test => {
    // The provider's sign-in form is the control token's too: it would sign in whoever is typed.
    const controlled =
      path.startsWith('/__mock') || (method.toLowerCase() === 'post' && path.startsWith('/idp/authorize'))
    if (rules.noControl && controlled) notCheckable(rules.noControl)
    if (
      rules.mockModeOnProduction &&
      !SERVED_IN_PRODUCTION.has(path.split('?')[0]!) &&
      validator.matchOperation(method, path.split('?')[0]!)?.document === 'control'
    )
      notCheckable(
        `needs the mock server's own sinks and identity provider (${method.toUpperCase()} ${path}), which a production target does not serve`,
      )
    const test = agent.request(method, path)
    countTargetRequest()
    if (codes !== null)
      test.expect((res: Response | undefined) => noteMailedCode(codes, method, path, test, res))
    if (rules.rateLimitedWithoutReset)
      test.expect((res: Response | undefined) => checkRateLimit(method, path, res))
    return test
  }
  const methods = Object.fromEntries(METHODS.map((m) => [m, (path: string) => open(m, path)])) as Omit<
    ContractAgent,
    'request' | 'noControl' | 'codes'
  >
  return {
    ...methods,
    request: open,
    ...(agent.noControl !== undefined && { noControl: agent.noControl }),
    ...(agent.codes !== undefined && { codes: agent.codes }),
  }
}

/** Tells `codes` of a call answered 2xx that mails a code, so that reading it waits for that mail. */
function noteMailedCode(
  codes: CodeSource,
  method: string,
  path: string,
  test: Test,
  res: Response | undefined,
): void {
  if (!res || res.status < 200 || res.status >= 300 || !(test instanceof TargetTest)) return
  const mailed = mailedCodeOf(method, path, test.sentJson)
  if (mailed && test.startedAt !== undefined) codes.noteSent(mailed.email, mailed.purpose, test.startedAt)
}

/** What a test server is when the run is against a target: its agents, its control token, the target. */
export interface TargetServer {
  api: ContractAgent
  stranger: ContractAgent
  controlToken: string | undefined
  controlHeaders: Record<string, string>
  target: ContractTarget
}

declare module 'vitest' {
  interface TaskMeta {
    /** The test was given the contract target as its server (a second server cannot be the same one). */
    contractServer?: true
    /** The settings the test asked for that the target has (`refreshGraceMs 10000`): why it ran there. */
    targetSettings?: string[]
  }
}

/** Options that say how the suite reaches the target, not what server it is. */
const isReachOption = (name: string, target: ContractTarget) =>
  name === 'production' || (name === 'controlToken' && target.controlToken !== null)

/**
 * Ends the test as not checkable unless the target is the server `options` describe: an option the target's settings
 * report must equal the target's value (contracts/support/target-settings.ts); any other describes another server;
 * `production: true` needs a target without /__mock. Returns the settings matched.
 */
async function requireSameServer(options: AppOptions, target: ContractTarget): Promise<string[]> {
  const named = Object.keys(options).filter(
    (name) => !isReachOption(name, target) && options[name as keyof AppOptions] !== undefined,
  )
  const comparable = new Set<string>(COMPARABLE_OPTIONS)
  const other = named.filter((name) => !comparable.has(name))
  if (other.length > 0) notCheckable(`needs a server built with ${other.join(', ')}`)
  const { matched, differs } =
    named.length === 0 ? { matched: [], differs: null } : compareSettings(options, await target.settings())
  if (differs !== null) notCheckable(differs)
  if (options.production === true && !target.production)
    notCheckable('needs a server in production mode (no /__mock), and the target offers /__mock')
  return matched
}

/** Counts the settings a check asked for and the target has (coverage.md, matched settings). */
function countMatched(test: ReturnType<typeof TestRunner.getCurrentTest>, matched: readonly string[]): void {
  if (test && matched.length > 0) test.meta.targetSettings = [...(test.meta.targetSettings ?? []), ...matched]
}

/**
 * For a check that takes its file's server, which against a target is the target already, and asks for settings of its
 * own (`trustProxyHops: 1`): ends it as not checkable unless the target has them, and counts those it has.
 */
export async function requireTargetHas(options: AppOptions): Promise<void> {
  countMatched(TestRunner.getCurrentTest(), await requireSameServer(options, await getContractTarget()))
}

/**
 * The test's server against CONTRACT_TARGET: the target, when it can stand for the server the test asked for.
 * Otherwise the test ends as not checkable, with the reason. An option the target's settings report (the grace
 * window, a lifetime, a limit) is compared with the target's; other options describe a server the target is not,
 * but `production` and `controlToken`. `production: true` needs a target without /__mock.
 */
export async function createTargetServer(options: AppOptions): Promise<TargetServer> {
  const target = await getContractTarget()
  const { production } = options
  const matched = await requireSameServer(options, target)
  const test = TestRunner.getCurrentTest()
  if (test) {
    if (test.meta.contractServer) notCheckable('needs a second server, separate from the first')
    test.meta.contractServer = true
  }
  countMatched(test, matched)
  const rules = {
    noControl: production === true ? null : target.noControl,
    // From an address of the check's own, a 429 is the check's to judge: a limit tighter than documented fails it.
    rateLimitedWithoutReset: target.noControl !== null && !isLoopbackTarget(target.baseUrl),
    mockModeOnProduction: production !== true && target.production,
  }
  const api = createTargetAgent(target, rules, target.headers)
  return {
    api,
    stranger: createTargetAgent(target, rules),
    controlToken: target.controlToken ?? undefined,
    controlHeaders: target.headers,
    target,
  }
}
