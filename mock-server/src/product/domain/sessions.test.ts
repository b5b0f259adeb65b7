// Sessions: revoking a user's sessions ends each of that user's but the one kept, and no other user's.
import { expect, test } from 'vitest'
import { createMockCore } from '../../core.ts'
import { createSession, getSessionByCookie, revokeUserSessions } from './sessions.ts'

async function createDomain() {
  const core = createMockCore({ seed: false })
  await core.ready
  return core.ops.domain
}

test("revoking a user's sessions ends every one of them but the one kept, and leaves other users' alone", async () => {
  const ctx = await createDomain()
  const kept = await createSession(ctx, 'user-1')
  const others = [await createSession(ctx, 'user-1'), await createSession(ctx, 'user-1')]
  const stranger = await createSession(ctx, 'user-2')
  await revokeUserSessions(ctx, 'user-1', 'password_changed', kept.session.id)
  expect(await getSessionByCookie(ctx, kept.cookie), 'the kept session').toEqual(kept.session)
  for (const other of others) {
    expect(await getSessionByCookie(ctx, other.cookie)).toBeNull()
    expect(await ctx.store.sessions.byId(other.session.id)).toMatchObject({
      revokedReason: 'password_changed',
    })
  }
  expect(await getSessionByCookie(ctx, stranger.cookie), "another user's session").toEqual(stranger.session)
})

test("revoking a user's sessions with none kept ends every one of them", async () => {
  const ctx = await createDomain()
  const sessions = [await createSession(ctx, 'user-1'), await createSession(ctx, 'user-1')]
  await revokeUserSessions(ctx, 'user-1', 'account_deleted')
  for (const { cookie } of sessions) expect(await getSessionByCookie(ctx, cookie)).toBeNull()
})
