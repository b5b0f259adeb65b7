/**
 * A contract target's `429 rate_limited`, when the run has no /__mock to reset the target between checks
 * (docs/decisions/016-contract-target.md).
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Response } from 'supertest'
import { getCoverageDir } from '#contracts/coverage/recorder.ts'
import { readCoverageRecords } from '#contracts/coverage/report.ts'
import { getProjectValidator } from '#contracts/support/openapi-validator.ts'
import { notCheckable } from '#contracts/support/target.ts'

/**
 * A limit this run's earlier calls reached is the target's right, not its fault: the check cannot be made. A limit
 * met at the run's first call of the operation, before the run reached any limit by its own calls, is no such thing:
 * a target that answers every call 429 must fail, not have its checks turned into skips; and a limit an earlier run
 * spent leaves nothing this run can vouch for, so it fails too, saying when to run again.
 */
export function checkRateLimit(method: string, path: string, res: Response | undefined): void {
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
