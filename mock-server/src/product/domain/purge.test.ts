// The purge of what can no longer change an answer: how many records it reports, how long an ended session and an
// unverified account stay, and a sign-up under way keeping its account.
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import { CODE_COOLDOWN_MS, CODE_TTL_MS, PENDING_PASSWORD_MS } from '../../shared/constants.ts'
import type { CodeRecord } from '../storage/records.ts'
import { codeLockKey } from './codes.ts'
import type { DomainContext } from './context.ts'
import { getSessionRetentionMs, purgeExpired } from './purge.ts'
import { createSession, revokeSession } from './sessions.ts'
import { signAccessToken, verifyAccessToken } from './tokens.ts'
import { createUser, getUserById } from './users.ts'

async function createDomain(options: { accessTokenTtlMs?: number } = {}) {
  // A clock that moves only when a test moves it: the rules here are to the millisecond.
  const core = createMockCore({
    seed: false,
    hasher: { memoryCost: 1024, timeCost: 1 },
    realNow: () => 1_700_000_000_000,
    ...options,
  })
  await core.ready
  return { core, ctx: core.ops.domain }
}

/** An account never verified, as a sign-up makes it. */
const createUnverified = (ctx: DomainContext) =>
  createUser(ctx, { email: 'ada@example.test', name: 'Ada', verified: false, password: 'pass phrase 1' })

const codeFor = (email: string, sentAt: number): CodeRecord => ({
  id: `code-${email}`,
  email,
  purpose: 'signup',
  hash: 'hash',
  sentAt,
  expiresAt: sentAt + CODE_TTL_MS,
  attempts: 0,
  usedAt: null,
  burned: false,
  supersededAt: null,
  signup: null,
})

test('a purge reports every record it removed: codes, reset tokens, sessions and unverified accounts with their steps', async () => {
  const { core, ctx } = await createDomain()
  const start = ctx.clock.now()
  await ctx.store.codes.issue(codeFor('bob@example.test', start))
  await ctx.store.resetTokens.replace({
    id: 'reset-1',
    userId: 'user-1',
    hash: 'hash',
    expiresAt: start,
    usedAt: null,
  })
  const { session } = await createSession(ctx, 'user-1')
  await revokeSession(ctx, session.id, 'sign_out')
  // One account and its six steps.
  const user = await createUnverified(ctx)
  core.clock.advance(PENDING_PASSWORD_MS + CODE_COOLDOWN_MS)
  expect(await purgeExpired(ctx)).toBe(1 + 1 + 1 + 7)
  expect(await ctx.store.codes.anyFor('bob@example.test')).toBe(false)
  expect(await ctx.store.resetTokens.byHash('hash')).toBeNull()
  expect(await ctx.store.sessions.byId(session.id)).toBeNull()
  expect(await getUserById(ctx, user.id)).toBeNull()
  expect(await purgeExpired(ctx), 'nothing left to remove').toBe(0)
})

test('an ended session stays while an access token it issued is alive, so the token answers session_revoked', async () => {
  const { core, ctx } = await createDomain({ accessTokenTtlMs: 60_000 })
  expect(getSessionRetentionMs(ctx)).toBe(61_000)
  // The clock stands on a whole second: the token lives exactly 60 s.
  const ended = ctx.clock.now()
  const { session } = await createSession(ctx, 'user-1')
  const token = await signAccessToken(ctx, 'user-1', session.id)
  await revokeSession(ctx, session.id, 'sign_out')
  core.clock.set(ended + 59_000)
  expect(await purgeExpired(ctx)).toBe(0)
  expect(await verifyAccessToken(ctx, token)).toEqual({ ok: false, code: 'session_revoked' })
  // Kept up to a second past the token's expiry, gone after it.
  core.clock.set(ended + 60_999)
  expect(await purgeExpired(ctx)).toBe(0)
  core.clock.set(ended + 61_000)
  expect(await purgeExpired(ctx)).toBe(1)
  expect(await ctx.store.sessions.byId(session.id)).toBeNull()
})

test('an account never verified stays until PENDING_PASSWORD_MS after its creation, and goes at that instant', async () => {
  const { core, ctx } = await createDomain()
  const user = await createUnverified(ctx)
  core.clock.set(user.createdAt + PENDING_PASSWORD_MS - 1)
  expect(await purgeExpired(ctx)).toBe(0)
  expect(await getUserById(ctx, user.id)).toEqual(user)
  core.clock.set(user.createdAt + PENDING_PASSWORD_MS)
  expect(await purgeExpired(ctx)).toBe(7)
  expect(await getUserById(ctx, user.id)).toBeNull()
})

test('a sign-up under way for the address keeps its unverified account from a purge that is due', async () => {
  const { core, ctx } = await createDomain()
  const user = await createUnverified(ctx)
  core.clock.advance(PENDING_PASSWORD_MS)
  // A sign-up of the address holds its lock until released, then writes its code.
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const signUp = ctx.locks.run(codeLockKey('ada@example.test', 'signup'), async () => {
    await released
    await ctx.store.codes.issue(codeFor('ada@example.test', ctx.clock.now()))
  })
  const purging = purgeExpired(ctx)
  // Every step of the purge is a settled promise on the memory store: one turn of the event loop runs all it can.
  await new Promise((resolve) => setImmediate(resolve))
  release()
  await signUp
  expect(await purging).toBe(0)
  expect(await getUserById(ctx, user.id)).toEqual(user)
})
