/**
 * The contract agents of a shared CONTRACT_TARGET (docs/decisions/016-contract-target.md): a request the target cannot
 * answer as the test's own server would ends the test as not checkable, with the reason, before it is sent:
 * - a /__mock path, when the target's control surface cannot be used;
 * - against a production target, an operation of the control document (the mock's own sinks and identity provider),
 *   and a body naming a seeded account (a production server has none);
 * and, without a control surface to reset it, a `429 rate_limited` answer the target gave because earlier checks of
 * this run came from the same client.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import request, { type Response, type Test } from 'supertest'
import { SEED_ACCOUNTS } from '#mock-server/domain/seed.ts'
import { createContractAgent, METHODS, type ContractAgent } from '#contracts/support/api.ts'
import { getProjectValidator } from '#contracts/support/openapi-validator.ts'
import { getCoverageDir } from '#contracts/coverage/recorder.ts'
import { readCoverageRecords } from '#contracts/coverage/report.ts'
import { countTargetRequest, notCheckable, type ContractTarget } from '#contracts/support/target.ts'

export interface TargetRules {
  /** Why /__mock cannot be used (null: it can, or the test expects a server without it). */
  noControl: string | null
  /** No /__mock to reset the target between checks. */
  rateLimitedWithoutReset: boolean
  /** The test expects a mock-mode server and the target is a production one. */
  mockModeOnProduction: boolean
}

/** Bodies above this size may be cut off by a target that refuses them early (see TargetTest). */
const OVERSIZED_BODY_BYTES = 64 * 1024

const SEED_EMAILS = SEED_ACCOUNTS.map((account) => account.email.toLowerCase())

/** A supertest request to the target that knows what it sent: the body's size, and whether it names a seeded account. */
class TargetTest extends request.Test {
  private sentBytes = 0

  constructor(
    baseUrl: string,
    method: string,
    path: string,
    private readonly mockModeOnProduction: boolean,
  ) {
    super(baseUrl, method, path)
  }

  override send(body?: string | object): this {
    const text = typeof body === 'string' ? body : Buffer.isBuffer(body) ? '' : JSON.stringify(body ?? '')
    this.sentBytes += Buffer.isBuffer(body) ? body.length : Buffer.byteLength(text)
    if (this.mockModeOnProduction && SEED_EMAILS.some((email) => text.toLowerCase().includes(email)))
      notCheckable('uses the seeded accounts of mock mode, which a production target does not have')
    return super.send(body)
  }

  // A server that refuses an oversized body may close the connection before the client has written it all: over the
  // network the client then sees the cut (EPIPE, ECONNRESET), not the answer.
  override then<TResult1 = Response, TResult2 = never>(
    onAnswer?: ((value: Response) => TResult1 | PromiseLike<TResult1>) | null,
    onError?: ((reason: unknown) => TResult2 | PromiseLike<TResult2>) | null,
  ): Promise<TResult1 | TResult2> {
    return super.then(onAnswer, (error: unknown) => {
      const code = (error as { code?: unknown } | null)?.code
      if (this.sentBytes > OVERSIZED_BODY_BYTES && (code === 'EPIPE' || code === 'ECONNRESET')) {
        try {
          notCheckable(
            `the target closed the connection while a ${this.sentBytes}-byte body was being sent (${code}), so its answer cannot be read over the network`,
          )
        } catch (skipped) {
          error = skipped
        }
      }
      if (onError) return onError(error)
      throw error
    })
  }
}

/** The agent of `target` (with `headers`) under `rules`: validated and counted like every contract agent. */
export function createTargetAgent(
  target: ContractTarget,
  rules: TargetRules,
  headers: Record<string, string> = {},
): ContractAgent {
  const validator = getProjectValidator()
  const agent = createContractAgent(target.baseUrl, {
    headers,
    ...(rules.noControl !== null && { noControl: rules.noControl }),
    createTest: (method, path) => new TargetTest(target.baseUrl, method, path, rules.mockModeOnProduction),
  })
  const open = (method: string, path: string): Test => {
    // The provider's sign-in form is the control token's too: it would sign in whoever is typed.
    const controlled =
      path.startsWith('/__mock') || (method.toLowerCase() === 'post' && path.startsWith('/idp/authorize'))
    if (rules.noControl && controlled) notCheckable(rules.noControl)
    if (rules.mockModeOnProduction && path.startsWith('/api/auth/external/'))
      notCheckable('needs the identity provider the mock server plays, which a production target does not')
    if (
      rules.mockModeOnProduction &&
      validator.matchOperation(method, path.split('?')[0]!)?.document === 'control'
    )
      notCheckable(
        `needs the mock server's own sinks and identity provider (${method.toUpperCase()} ${path}), which a production target does not serve`,
      )
    const test = agent.request(method, path)
    countTargetRequest()
    if (rules.rateLimitedWithoutReset)
      test.expect((res: Response | undefined) => checkRateLimit(method, path, res))
    return test
  }
  const methods = Object.fromEntries(METHODS.map((m) => [m, (path: string) => open(m, path)])) as Omit<
    ContractAgent,
    'request' | 'noControl'
  >
  return { ...methods, request: open, ...(agent.noControl !== undefined && { noControl: agent.noControl }) }
}

/**
 * A limit this run's earlier calls reached is the target's right, not its fault: the check cannot be made. A limit
 * met at the run's first call of the operation, before the run reached any limit by its own calls, is no such thing:
 * a target that answers every call 429 must fail, not have its checks turned into skips; and a limit an earlier run
 * spent leaves nothing this run can vouch for, so it fails too, saying when to run again.
 */
function checkRateLimit(method: string, path: string, res: Response | undefined): void {
  if (res?.status !== 429 || (res.body as { error?: unknown } | undefined)?.error !== 'rate_limited') return
  const operationId = getProjectValidator().matchOperation(method, path.split('?')[0]!)?.operationId
  if (operationId && answeredOtherwise(operationId)) noteLimitReached()
  else if (!limitReachedBefore())
    throw new Error(
      `The target answered 429 rate_limited to ${method.toUpperCase()} ${path} before this run had any other answer from ${operationId ?? 'it'}, so no earlier check of this run reached the limit: the target refuses every call, or an earlier run from this client spent it (run again after its Retry-After: ${String(res.headers['retry-after'] ?? 'not given')}).`,
    )
  notCheckable(
    `the target rate-limited this client after the run's earlier calls of ${operationId} (no /__mock to reset it between checks)`,
  )
}

/**
 * A limit this run reached by its own calls (a 429 after earlier answers of the same operation) is remembered for the
 * rest of the run, in its coverage directory (files run in separate workers): a limiter may count several operations
 * together (the mock server's counts sign-ins and password updates alike), so another operation's first call may
 * meet it too. Before the run has reached any limit so, a 429 at an operation's first call fails.
 */
const LIMIT_REACHED_FILE = 'target-limit-reached'

function noteLimitReached(): void {
  const dir = getCoverageDir()
  if (dir) writeFileSync(join(dir, LIMIT_REACHED_FILE), '')
}

function limitReachedBefore(): boolean {
  const dir = getCoverageDir()
  return dir !== undefined && existsSync(join(dir, LIMIT_REACHED_FILE))
}

/** Whether this run (any worker, any earlier check) had an answer other than 429 from `operationId`. */
function answeredOtherwise(operationId: string): boolean {
  const dir = getCoverageDir()
  if (!dir) return false
  return readCoverageRecords(dir).some(
    (record) => record.kind === 'documented' && record.operationId === operationId && record.status !== '429',
  )
}
