// The PostgreSQL store in npm test (docs/contract-suite.md, "Behind a balancer"): the balancer leg runs the suite
// through three instances on PostgreSQL, then in process on PostgreSQL only the checks that did not pass there (those
// a target cannot take). The list of what passed goes from the one run to the other in a file named by
// CONTRACT_PASSED_ELSEWHERE; a check is named by its file and its full name, as the CTRF report names it.
import { readFileSync, writeFileSync } from 'node:fs'
import type { CtrfReport } from './reports/ctrf.ts'

export const PASSED_THROUGH_BALANCER =
  'passed on this PostgreSQL through the balancer (reports/contracts-balancer)'

export interface PassedElsewhere {
  reason: string
  checks: string[]
}

/**
 * A check's name in the list: its file, relative to the repository, and its full name. A describe naming its random
 * seed (conformance, generated input) names another seed in each run: the seed is left out.
 */
export const checkKey = (filePath: string, fullName: string) =>
  `${filePath} :: ${fullName.replace(/\(seed \d+\)/g, '(seed)')}`

/** The checks a CTRF report says passed. */
export function passedChecks(report: CtrfReport): string[] {
  return report.results.tests
    .filter((test) => test.status === 'passed' && test.filePath !== undefined)
    .map((test) => checkKey(test.filePath!, test.name))
}

export function writePassedElsewhere(file: string, list: PassedElsewhere): void {
  writeFileSync(file, JSON.stringify(list))
}

/**
 * The list CONTRACT_PASSED_ELSEWHERE names, as a set; null when unset. It is the balancer leg's own, for its step on
 * PostgreSQL: set for any other store (inherited from a CI's environment, say), it would skip checks silently, so
 * it stops the run.
 */
export function readPassedElsewhere(
  file: string | undefined,
  store: string | undefined,
): { reason: string; checks: ReadonlySet<string> } | null {
  if (!file?.trim()) return null
  if (store !== 'postgres')
    throw new Error(
      'CONTRACT_PASSED_ELSEWHERE is set, but only the balancer leg sets it, for its run on PostgreSQL ' +
        '(harness/balancer-leg.ts): unset it.',
    )
  const list = JSON.parse(readFileSync(file, 'utf8')) as PassedElsewhere
  return { reason: list.reason, checks: new Set(list.checks) }
}

/**
 * The checks of `first` that passed neither there nor in `second`: must be none, or some check of the suite did not
 * pass on the store.
 */
export function notPassedOnEither(first: CtrfReport, second: CtrfReport | null): string[] {
  const passed = new Set([...passedChecks(first), ...(second ? passedChecks(second) : [])])
  return first.results.tests
    .map((test) => checkKey(test.filePath ?? '', test.name))
    .filter((key) => !passed.has(key))
}
