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
 * A limit this run's own calls reached is the target's right: the check is skipped.
 * A 429 before that fails, so a target that answers every call 429 cannot pass as skips.
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
 * Remembers, across workers, that this run reached a limit by its own calls.
 * A limiter may count several operations together, so another operation's first call may meet it too.
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
