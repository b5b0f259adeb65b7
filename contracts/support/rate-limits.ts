/**
 * The server a rate-limit check reaches the limit of (docs/contract-suite.md, "The target's settings").
 * In process, a server built with a small limit, quick to reach. Against a target, the target at its own limit as
 * its settings report it, so a deployment is checked at the limit it runs with, not skipped for differing from the
 * small one.
 */
import { TestRunner } from 'vitest'
import type { AppOptions } from '#mock-server/app.ts'
import type { WindowLimit } from '#mock-server/shared/rule-settings.ts'
import { isLoopbackTarget } from '#contracts/support/loopback-target.ts'
import { getContractTarget, notCheckable, TARGET_URL } from '#contracts/support/target.ts'
import { compareSettings } from '#contracts/support/target-settings.ts'
import { requireTargetHas } from '#contracts/support/target-agent.ts'
import { createTestServer, type TestServer } from '#contracts/support/test-server.ts'

/** The most calls a check makes to reach a target's limit; a larger limit makes it not checkable. */
export const MAX_CALLS_TO_REACH = 200

export type RateLimitOption = 'loginRateLimit' | 'mailRateLimit' | 'verifyRateLimit'

export interface LimitedServer {
  server: TestServer
  /** The limit the check reaches: `small` in process, the target's own against a target. */
  limit: WindowLimit
}

/**
 * @param small the limit of the in-process server.
 * @param current the check's server when it already has one (a file's useTestServer): against a target it is the
 *   target, so it is the server returned; in process a fresh one is built with `small`.
 * @param options the server's other options (`trustProxyHops: 1`), compared with the target's like any.
 * @example const { server: limited, limit } = await limitedServer('loginRateLimit', { max: 3, windowMs: 60_000 }, server)
 */
export async function limitedServer(
  option: RateLimitOption,
  small: WindowLimit,
  current?: TestServer,
  options: AppOptions = {},
): Promise<LimitedServer> {
  if (!TARGET_URL) return { server: await createTestServer({ ...options, [option]: small }), limit: small }
  const target = await getContractTarget()
  const settings = await target.settings()
  const limit = settings.values[option] as WindowLimit | undefined
  if (!limit) notCheckable(`needs the target's ${option}, which ${settings.source} does not give`)
  if (limit.max > MAX_CALLS_TO_REACH)
    notCheckable(
      `reaching the target's ${option} of ${limit.max} per ${limit.windowMs} ms takes more than ${MAX_CALLS_TO_REACH} calls`,
    )
  // From the run's one address, a limit reached here would refuse every later check of the run.
  if (target.noControl !== null && !isLoopbackTarget(target.baseUrl))
    notCheckable(
      `reaching the target's ${option} from the run's one client address would spend it for every later check, and the target has no /__mock to reset it`,
    )
  if (!current) return { server: await createTestServer({ ...options, [option]: limit }), limit }
  await requireTargetHas(options)
  // Counted as a setting the target has, in the words createTestServer would use (coverage.md, matched settings).
  const test = TestRunner.getCurrentTest()
  const { matched } = compareSettings({ [option]: limit }, settings)
  if (test) test.meta.targetSettings = [...(test.meta.targetSettings ?? []), ...matched]
  return { server: current, limit }
}
