// A session started through the sign-in form, noted where a test reads on from: the tokens it stored and the journal's
// position. On a page clock that stands still unless the test moves it, "300 s after the sign-in" is exact
// (docs/behaviour.md: Session, Constants).
import type { Page } from '@playwright/test'
import {
  compareTokens,
  describeCalls,
  expect,
  readTokens,
  ROTATED,
  signInThroughForm,
  type Account,
  type MockControl,
  type StoredTokens,
} from './fixtures.ts'
import { refreshSettled } from './held-answers.ts'

/** Written here, not imported from the app (docs/behaviour.md: Session, Constants). */
export const REFRESH_INTERVAL_MS = 300_000

export interface StartedSession {
  /** The tokens the sign-in stored. */
  before: StoredTokens
  /** The journal's last seq right after the sign-in: what came later is the test's. */
  since: number
  /** The refreshes the journal holds since the sign-in, as `describeCalls` writes them. */
  refreshes(): Promise<string[]>
}

/**
 * Signs `account` in through the form and notes the tokens and the journal's position.
 * @example const { before, since } = await startSession(page, mock, account)
 */
export async function startSession(page: Page, mock: MockControl, account: Account): Promise<StartedSession> {
  await signInThroughForm(page, account)
  const before = await readTokens(page)
  const since = await mock.lastSeq()
  const refreshes = async () => describeCalls(await mock.requests(account.email, since), ['refreshToken'])
  return { before, since, refreshes }
}

/** `startSession` with the page clock installed (`skewMs` off the real time, when given) and paused a minute ahead. */
export async function startSessionOnPausedClock(
  page: Page,
  mock: MockControl,
  account: Account,
  skewMs?: number,
): Promise<StartedSession> {
  await page.clock.install(skewMs === undefined ? undefined : { time: Date.now() + skewMs })
  await page.goto('/login')
  await page.clock.pauseAt(new Date(Date.now() + (skewMs ?? 0) + 60_000))
  return startSession(page, mock, account)
}

/** No refresh until 300 s after the sign-in, then exactly one, which rotates the tokens. */
export async function expectRefreshAtInterval(page: Page, session: StartedSession): Promise<void> {
  await page.clock.runFor(REFRESH_INTERVAL_MS - 1)
  await refreshSettled(page)
  expect(await session.refreshes(), 'none before 300 s').toEqual([])
  await page.clock.runFor(1)
  await refreshSettled(page)
  expect(await session.refreshes(), 'one at 300 s').toEqual(['refreshToken 200'])
  expect(compareTokens(session.before, await readTokens(page))).toEqual(ROTATED)
}
