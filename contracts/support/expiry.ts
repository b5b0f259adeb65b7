/**
 * Sessions whose access token has expired, for the expiry rows (docs/contract-suite.md, "Expiry without moving the
 * clock"). Where the clock can be moved (in-process, or a target's /__mock), each is made on the check's own server and
 * the clock moved past its lifetime. Against a target without /__mock whose tokens live at most MAX_REAL_WAIT_MS, the
 * file's sessions are all made in its beforeAll and expire together: the file waits one lifetime, not one per check.
 */
import { beforeAll } from 'vitest'
import type { ContractAgent } from '#contracts/support/api.ts'
import { getContractTarget, NotCheckableError, notCheckable, TARGET_URL } from '#contracts/support/target.ts'
import { advanceClock, createTestServer, signUp, type SignedIn } from '#contracts/fixtures.ts'

/** The longest access-token lifetime the suite waits out; a longer one makes the expiry rows not checkable. */
export const MAX_REAL_WAIT_MS = 60_000
/** The time-out of a check that takes an expired session: the usual 30 s, and the wait. */
export const EXPIRY_TEST_TIMEOUT_MS = 30_000 + MAX_REAL_WAIT_MS
/** Past the lifetime by this much: `exp` and `iat` are whole seconds. */
const EXPIRY_MARGIN_MS = 1_000

/** How long the access token `token` lives, from its claims (`exp - iat`, both by the target's clock). */
export function expiryOf(token: string): { lifetimeMs: number } {
  const { exp, iat } = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
    exp: number
    iat: number
  }
  return { lifetimeMs: (exp - iat) * 1000 }
}

/**
 * At least `ms` pass on the server's clock: moved where it can be (in-process, a target's /__mock); against a target
 * without /__mock, waited out in real time up to MAX_REAL_WAIT_MS. Only for "past a limit" (a grace window, a
 * lifetime): a real wait may overshoot, never fall short, so "still within" cannot be waited for this way.
 * @example await waitPast(api, GRACE_MS + 1) // the retired token is now past its grace window
 */
export async function waitPast(api: ContractAgent, ms: number): Promise<void> {
  if (api.noControl === undefined) return advanceClock(api, ms)
  if (ms > MAX_REAL_WAIT_MS)
    notCheckable(
      `needs ${ms / 1000} s to pass on the target's clock: only /__mock moves it, and the suite waits at most ${MAX_REAL_WAIT_MS / 1000} s in real time`,
    )
  await new Promise((done) => setTimeout(done, ms + EXPIRY_MARGIN_MS))
}

export interface ExpiredSessions {
  /** A signed-in account of `api`'s server whose access token has expired; its refresh token and cookie still hold. */
  take(api: ContractAgent): Promise<SignedIn>
}

/**
 * For a file whose checks need `count` expired sessions, taken one per check.
 * @example const expired = useExpiredSessions(4); test('…', async () => { const { token } = await expired.take(api) }, EXPIRY_TEST_TIMEOUT_MS)
 */
export function useExpiredSessions(count: number): ExpiredSessions {
  /** Each with when its answer came, by this machine's clock: the token was issued before. */
  const prepared: Promise<{ account: SignedIn; receivedAt: number }>[] = []
  beforeAll(async () => {
    if (!TARGET_URL || (await getContractTarget()).noControl === null) return
    const { api } = await createTestServer()
    for (let n = 0; n < count; n += 1) {
      const made = signUp(api, 'expiring').then((account) => ({ account, receivedAt: Date.now() }))
      made.catch(() => undefined) // surfaced by the check that takes it
      prepared.push(made)
    }
    await Promise.allSettled(prepared)
  }, EXPIRY_TEST_TIMEOUT_MS)

  return {
    async take(api) {
      if (api.noControl === undefined) {
        const account = await signUp(api, 'expiring')
        await advanceClock(api, expiryOf(account.token).lifetimeMs)
        return account
      }
      const next = prepared.shift()
      if (!next) throw new Error(`Failed to take an expired session: the file made ${count}, all taken.`)
      const { account, receivedAt } = await next.catch((error: unknown) => {
        if (error instanceof NotCheckableError) notCheckable(error.reason)
        throw error
      })
      const { lifetimeMs } = expiryOf(account.token)
      if (lifetimeMs > MAX_REAL_WAIT_MS)
        notCheckable(
          `waits for an access token to expire, and the target's live ${lifetimeMs / 1000} s, over ${MAX_REAL_WAIT_MS / 1000} s (start it with --access-ttl 30s, docs/mock-server.md)`,
        )
      // The point of the check: real time passes until the token has expired. Counted from its arrival, not from
      // `exp`, so a target whose clock is off by minutes is judged by its own lifetime all the same.
      const expiredAt = receivedAt + lifetimeMs + EXPIRY_MARGIN_MS
      await new Promise((done) => setTimeout(done, Math.max(0, expiredAt - Date.now())))
      return account
    },
  }
}
